// Every phone in the house: the address phones open (`dicegames serve --lan`), for the home
// page's "Open on a phone" and the seat links of the game page. Without --lan the server
// listens on this computer only, and the page says how to start it for phones.
import {api, el, t} from "/static/shell.js";

let served = null;

/** The origin phones open (`http://192.168.1.20:8000`): the server's network address when
 *  it was started with --lan, else this page's own origin. Asked once per page. */
export function servedOrigin() {
  served ??= api("/api/lan").then((answer) => (answer.url ? new URL(answer.url).origin : location.origin))
    .catch(() => location.origin);
  return served;
}

/** True when a phone cannot open `origin` (a loopback name: this computer only). */
export function localOnly(origin) {
  return ["localhost", "127.0.0.1", "[::1]", "0.0.0.0"].includes(new URL(origin).hostname);
}

/** Fill the home page's "Open on a phone" section: the address and its QR code, or how to
 *  start the server so phones can reach it. */
export async function showPhoneAccess(container) {
  const {url} = await api("/api/lan").catch(() => ({url: null}));
  if (!url) {
    container.replaceChildren(
      el("p", {text: t("Phones cannot reach this server: it listens on this computer only. To play from every phone in the house, start it with:")}),
      el("pre", {}, el("code", {text: "dicegames serve --lan"})));
    return;
  }
  container.replaceChildren(
    el("figure", {class: "qr"}, el("img", {src: "/api/lan/qr", width: 200, height: 200,
      loading: "lazy", alt: t("QR code of this server's address: scan it with a phone")})),
    el("p", {text: t("Scan the code with a phone's camera, or type this address in its browser: every phone on this network can join.")}),
    el("p", {}, el("a", {href: url, class: "address", text: url})));
}
