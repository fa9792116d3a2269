// The quick start's player name: asked on this device's first quick start and remembered
// there, so the game says "Mia's turn" rather than "You's turn"; left empty it is
// "Player 1".
import {el, t} from "/static/shell.js";

const KEY = "dicegames:player-name";

/** The name of the person at this device: the remembered one, else asked in a dialog
 * whose button says `action` (null when they close it without answering). */
export function askName(action = t("Play")) {
  const known = localStorage.getItem(KEY);
  if (known !== null) return Promise.resolve(known || t("Player {number}", {number: 1}));
  return new Promise((resolve) => {
    const input = el("input", {type: "text", id: "player-name", name: "name", maxlength: 40,
      autocomplete: "nickname", placeholder: t("Player {number}", {number: 1})});
    const dialog = el("dialog", {class: "name-dialog", "aria-labelledby": "name-title"});
    let answer = null;
    const form = el("form", {method: "dialog", onsubmit: () => {
      const name = input.value.trim();
      localStorage.setItem(KEY, name);
      answer = name || t("Player {number}", {number: 1});
    }},
    el("h2", {id: "name-title", text: t("What is your name?")}),
    el("p", {text: t("The game calls you by it. This device remembers it.")}),
    el("label", {for: "player-name", text: t("Your name")}), input,
    el("div", {class: "tools"},
      el("button", {type: "submit", class: "primary", text: action}),
      el("button", {type: "button", text: t("Cancel"), onclick: () => dialog.close()})));
    dialog.append(form);
    dialog.addEventListener("close", () => { dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}

/** "Playing as Mia. Change name": under the games once a name is remembered, so a
 * brother on the same tablet is not called Mia; empty until then. */
export function nameLine() {
  const line = el("p", {class: "player-line", id: "player-line", role: "status"});
  const draw = () => {
    const known = localStorage.getItem(KEY);
    line.hidden = known === null;
    if (known === null) { line.replaceChildren(); return; }
    line.replaceChildren(
      el("span", {text: t("Playing as {name}.", {name: known || t("Player {number}", {number: 1})})}),
      " ",
      el("button", {type: "button", class: "change-name", text: t("Change name"),
        onclick: async () => {
          localStorage.removeItem(KEY);
          await askName(t("Save"));
          draw();
        }}));
  };
  draw();
  return line;
}
