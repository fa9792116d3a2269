// Game page: live state over a websocket, the board, dice, choices, dice entry, hints, undo,
// log.
import {LANG, drawBoard, drawDice, drawDie, drawLog, drawSeats, el, t} from "/static/shell.js";
import {localOnly, servedOrigin} from "/static/lan.js";
import {drawEnd, drawUndo, turnLine} from "/static/turns.js";
import {drawAgain, playAgain} from "/static/again.js";

const $ = (id) => document.getElementById(id);
const matchId = decodeURIComponent(location.pathname.split("/").pop());
const params = new URLSearchParams(location.search);
const saved = JSON.parse(localStorage.getItem(`dicegames:${matchId}`) || "null");
// A seat link (?seat=TOKEN) holds one seat; the creating device holds all its local seats.
const tokens = params.get("seat") ? [params.get("seat")] : (saved ? saved.tokens : []);

let socket = null;
let state = null;
let nextId = 1;
let waiting = false;
let retry = 500;
let busyRefusal = "";  // the last refusal of a connection for a busy database (503)
let endShown = false;
let hinted = null;  // the last hint answer: {seat, revision, move, label, bot}
let logSeen = null;  // the log's size at the last drawing: the dice tumble after a new roll
let fairFull = false;  // the whole dice commitment is shown (a click on the short one)
// The board's static part (a large custom grid or circuit): the server sends it in a
// connection's first state only, and every later state's board lacks the entries named in
// static_board_keys, which this keeps.
let staticBoard = null;
const NOT_CONNECTED = t("Not connected: reconnecting…");

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showError(NOT_CONNECTED);
    return;
  }
  waiting = true;
  $("choices").querySelectorAll("button").forEach((b) => { b.disabled = true; });
  socket.send(JSON.stringify({...message, id: nextId++}));
}

function showError(message) { $("error").textContent = message || ""; }

/** The local seat that decides now: the first deciding seat of ours with choices. */
function actingSeat() {
  if (!state || state.status !== "playing") return null;
  for (const seat of state.node.deciding) {
    const hints = state.hints[String(seat)];
    if (hints && hints.length) return seat;
  }
  return null;
}

function pick(move) {
  const seat = actingSeat();
  if (seat === null || waiting) return;
  showError("");
  send({type: "act", seat, move});
}

function drawChoices(hints, owned) {
  const box = $("choices");
  if (owned || !hints.length) { box.replaceChildren(); return; }
  box.replaceChildren(...hints.map((hint, i) => el("button", {type: "button", class: "choice",
    "data-move": hint.move, title: hint.move,
    "aria-keyshortcuts": i < 9 ? String(i + 1) : null, onclick: () => pick(hint.move)},
    i < 9 ? el("kbd", {text: String(i + 1)}) : null, hint.label)));
  narrowChoices(narrowed);
}

/** The moves a board left on offer after a first tap on it (EXTRA!'s rows: ctx.narrow), or
 * null for all: the other choice buttons hide until the board widens them again. */
let narrowed = null;
function narrowChoices(moves) {
  narrowed = moves ? new Set(moves) : null;
  $("choices").querySelectorAll("button.choice").forEach((button) => {
    button.hidden = narrowed !== null && !narrowed.has(button.dataset.move);
  });
}

/** Ask the server what the game's hint bot would play for the deciding seat. */
function askHint() {
  const seat = actingSeat();
  if (seat === null || waiting || $("hint").disabled) return;
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showError(NOT_CONNECTED);
    return;
  }
  showError("");
  $("hint").disabled = true;
  socket.send(JSON.stringify({type: "hint", seat, id: nextId++}));
}

/** The Hint button while a seat of ours decides, and the hint for this very position
 * (its revision: an undo then another move brings the version back, not the revision). */
function drawHint(seat) {
  const button = $("hint");
  button.hidden = seat === null;
  button.disabled = false;
  const now = hinted !== null && seat === hinted.seat && state.revision === hinted.revision;
  $("hint-text").hidden = !now;
  $("hint-text").textContent = now
    ? t("Hint: the {level} bot would play “{move}”.", {level: t(hinted.bot), move: hinted.label}) : "";
  // The choice button, and the board's pieces or squares that play the same move (each
  // board module styles its own .suggested targets).
  document.querySelectorAll("#choices button.choice, #board [data-move]").forEach((node) => {
    node.classList.toggle("suggested", now && node.dataset.move === hinted.move);
  });
}

function drawEntry() {
  const box = $("entry");
  if (!state.can_enter_dice) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const enter = (text) => { showError(""); send({type: "dice", dice: text}); };
  const spec = state.view.dice_entry;
  const title = el("p", {class: "entry-title", text: t("Roll the real dice and enter what they show:")});
  if (spec && spec.count > 1) {
    box.replaceChildren(title, ...countingEntry(spec, enter));
  } else if (spec) {
    const chosen = new Array(spec.count).fill(null);
    const ok = el("button", {type: "button", class: "primary", disabled: true, text: t("Enter the dice"),
      onclick: () => enter(chosen.join(spec.join))});
    const rows = chosen.map((_, d) => el("div", {class: "picker", role: "radiogroup",
      "aria-label": t("Die {number}", {number: d + 1})}, ...spec.faces.map((face) => {
      const button = el("button", {type: "button", class: "face", role: "radio",
        "aria-checked": "false", "data-value": face.value,
        onclick: () => {
          chosen[d] = face.value;
          button.parentNode.querySelectorAll("button").forEach((b) => b.setAttribute("aria-checked", String(b === button)));
          ok.disabled = chosen.some((v) => v === null);
        }}, swatch(face), face.label);
      return button;
    })));
    box.replaceChildren(title, ...rows, ok);
  } else if (state.outcomes) {
    box.replaceChildren(title, el("div", {class: "outcomes"}, ...state.outcomes.map((o) =>
      el("button", {type: "button", class: "outcome", "data-move": o, text: o, onclick: () => enter(o)}))));
  } else {
    const input = el("input", {type: "text", "aria-label": t("The dice, in notation"),
      placeholder: t("e.g. {example}", {example: "3 5"})});
    const form = el("form", {onsubmit: (e) => { e.preventDefault(); enter(input.value); }},
      input, el("button", {type: "submit", class: "primary", text: t("Enter")}));
    box.replaceChildren(title, form);
  }
  if (state.dice_note) title.after(el("p", {class: "entry-note", text: state.dice_note}));
}

/** A colour die's face (Monza) gets a swatch of its colour before its name: the die itself,
 * with its mark and shape, when the view gives them. */
function swatch(face) {
  if (face.mark) {
    const die = drawDie(face);
    die.setAttribute("class", "swatch-die");
    die.removeAttribute("role");
    die.removeAttribute("aria-label");
    die.setAttribute("aria-hidden", "true");
    return die;
  }
  return face.colour ? el("span", {class: "swatch", "aria-hidden": "true",
    style: `background: ${face.colour}`}) : null;
}

/** Several dice whose order does not matter (Monza's six colour dice, EXTRA!'s five): one
 * button a face, each tap adds a die showing it, "−" takes one back; the count of each face
 * and the dice so far are shown and announced, and the dice go in once all are there. */
function countingEntry(spec, enter) {
  const counts = new Map(spec.faces.map((face) => [face.value, 0]));
  const total = () => [...counts.values()].reduce((a, b) => a + b, 0);
  const status = el("p", {class: "entry-status", role: "status", "aria-live": "polite"});
  const ok = el("button", {type: "button", class: "primary", text: t("Enter the dice"),
    onclick: () => enter(spec.faces.flatMap((face) =>
      new Array(counts.get(face.value)).fill(face.value)).join(spec.join))});
  const clear = el("button", {type: "button", text: t("Clear"),
    onclick: () => { counts.forEach((_, key) => counts.set(key, 0)); update(); }});
  const cells = spec.faces.map((face) => {
    const count = el("span", {class: "count", "aria-hidden": "true"});
    const add = el("button", {type: "button", class: "face add", "data-value": face.value,
      onclick: () => { if (total() < spec.count) { counts.set(face.value, counts.get(face.value) + 1); update(); } }},
    el("span", {class: "name", text: face.label}), count);
    // The face's die stands before its button, not in it: its mark (Monza's R) would
    // contradict the button's name ("Red: 0 so far. Add one"); a tap on it adds one too.
    const mark = swatch(face);
    if (mark) mark.addEventListener("click", () => add.click());
    const less = el("button", {type: "button", class: "less", "data-value": face.value,
      "aria-label": t("One {face} less", {face: face.label}), text: "−",
      onclick: () => { counts.set(face.value, Math.max(0, counts.get(face.value) - 1)); update(); }});
    return {face, add, less, count, mark};
  });
  function update() {
    const n = total();
    for (const {face, add, less, count} of cells) {
      const k = counts.get(face.value);
      count.textContent = k ? `×${k}` : "";
      add.setAttribute("aria-label", t("{face}: {count} so far. Add one", {face: face.label, count: k}));
      add.disabled = n >= spec.count;
      less.disabled = k === 0;
    }
    const shown = spec.faces.flatMap((face) => new Array(counts.get(face.value)).fill(face.label))
      .join(", ");
    status.textContent = shown ? t("{count} of {total} dice: {faces}.", {count: n, total: spec.count, faces: shown})
      : t("{count} of {total} dice.", {count: n, total: spec.count});
    ok.disabled = n !== spec.count;
    clear.disabled = n === 0;
  }
  update();
  const grid = el("div", {class: "counter", role: "group", "aria-label": t("The {count} dice", {count: spec.count})},
    ...cells.map(({add, less, mark}) => el("div", {class: "counter-face"}, mark, add, less)));
  return [grid, status, el("div", {class: "entry-actions"}, ok, clear)];
}

/** An invited seat's name as the match has it now: a seat taken from the lobby bears its
 * player's name. */
function inviteName(invite) {
  return (state && state.players[invite.seat]?.name) || invite.name;
}

let linkNames = null;  // the invited seats' names the links were drawn with
let origin = location.origin;  // the links' origin: the one phones open (serve --lan)

function drawLinks() {
  const links = [];
  if (saved && saved.invites) {
    for (const invite of saved.invites) {
      const name = inviteName(invite);
      links.push(linkItem(t("{name}'s seat (secret)", {name}), origin + invite.link, name));
    }
    linkNames = saved.invites.map(inviteName).join("\n");
  }
  links.push(linkItem(t("Watch (read-only)"), `${origin}/m/${matchId}`));
  $("links").replaceChildren(...links);
  $("invites").hidden = false;
  if (saved && saved.invites && saved.invites.length && state
      && !state.log.some((e) => e.kind === "move")) $("invites").open = true;  // nobody has moved yet
}

/** One link to share: its text, a copy button and, for a seat (`seatName`), a QR code for a
 * phone at the same table, drawn by the server for the seat token the link holds; the code
 * is fetched when first shown, so the panel stays compact. */
function linkItem(label, url, seatName = null) {
  const input = el("input", {type: "text", readonly: true, value: url, "aria-label": label});
  const item = el("li", {}, el("span", {text: label + ": "}), input,
    el("button", {type: "button", text: t("Copy"), onclick: () => {
      input.select();
      navigator.clipboard?.writeText(url).catch(() => {});
    }}));
  const token = seatName === null ? null : new URL(url).searchParams.get("seat");
  if (!token) return item;
  const figure = el("figure", {class: "qr", id: `qr-${token.slice(0, 8)}`, hidden: true});
  const toggle = el("button", {type: "button", class: "qr-toggle", "aria-expanded": "false",
    "aria-controls": figure.id, text: t("QR code"),
    "aria-label": t("QR code of {name}'s seat link", {name: seatName})});
  toggle.addEventListener("click", () => {
    const open = figure.hidden;
    figure.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open && !figure.firstChild) {
      const src = `/api/matches/${encodeURIComponent(matchId)}/qr?token=${encodeURIComponent(token)}`;
      figure.append(el("img", {src, width: 240, height: 240,
        alt: t("QR code of {name}'s seat link: scan it with the phone of {name}", {name: seatName})}));
      if (localOnly(origin)) {
        figure.append(el("figcaption", {text: t("A phone cannot open “{host}”: open this page at this computer's network address to share the code.", {host: new URL(origin).hostname})}));
      }
    }
  });
  item.append(toggle, figure);
  return item;
}

/** The dice commitment the match published when it was created: the digest's first digits
 * (all of them on hover, and on a click), a warning when the match's creator seeded the
 * dice, and at the end that the secret is out and how anyone can check every roll. */
function drawFair() {
  const box = $("fair");
  const fair = state.fair;
  if (!fair || state.dice_mode === "manual") { box.hidden = true; box.replaceChildren(); return; }
  const parts = [];
  if (fair.commitment) {
    const digest = el("button", {type: "button", class: "digest", title: fair.commitment,
      "aria-expanded": String(fairFull),
      "aria-label": t("Dice commitment (SHA-256): {digest}", {digest: fair.commitment}),
      text: fairFull ? fair.commitment : fair.commitment.slice(0, 12) + "…",
      onclick: () => { fairFull = !fairFull; drawFair(); }});
    parts.push(el("span", {text: t("Dice commitment:")}), " ", digest);
  } else {
    parts.push(el("span", {text: t("This match began before dice commitments: its rolls cannot be verified.")}));
  }
  if (fair.seeded_by === "creator") {
    parts.push(" ", el("strong", {class: "seeded", text: t("The dice were seeded by the match's creator, who can know every roll.")}));
  }
  if (fair.secret) {
    parts.push(" ", el("span", {class: "revealed", text: t("The secret is revealed: download the record and check every roll with “dicegames verify RECORD”.")}));
  } else if (fair.commitment) {
    parts.push(" ", el("span", {text: t("Nobody can know a roll before it happens; the secret behind the dice is revealed when the game ends.")}));
  }
  box.replaceChildren(...parts);
  box.hidden = false;
}

function showEnd() {
  if (!state.result) return;
  // The link to the next game comes when someone starts it, maybe after the dialog opened.
  drawAgain(state, tokens, $("again"), $("next-game"));
  if (endShown) return;
  endShown = true;
  const dialog = $("end");
  drawEnd(state, $("end-text"), $("end-scores"));
  if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
}

async function again() {
  try {
    await playAgain(matchId, tokens, Boolean(params.get("seat")));
  } catch (error) {
    $("end-text").textContent = error.message;
  }
}

async function render() {
  const seat = actingSeat();
  document.title = `${state.game.name} — dicegames`;
  $("title").textContent = state.game.name;
  drawSeats($("seats"), state);
  $("status").textContent = turnLine(state, seat);
  const fresh = logSeen === null ? [] : state.log.slice(Math.max(0, state.log.length - (state.log_size - logSeen)));
  logSeen = state.log_size;
  drawDice($("dice"), state.view.dice, fresh.some((event) => event.kind === "roll"));
  const hints = seat === null ? [] : state.hints[String(seat)];
  // The viewer's seat: the one deciding now on a shared device, else the first held one.
  const viewer = seat !== null ? seat : (state.you.length ? state.you[0] : null);
  const ctx = {hints, pick, names: state.players.map((p) => p.name), seat: viewer,
    deciding: state.node.deciding, narrow: narrowChoices};
  narrowed = null;
  const owned = await drawBoard($("board"), state, ctx);
  drawChoices(hints, owned);
  drawHint(seat);
  drawEntry();
  drawUndo($("undo"), state);
  drawLog($("log"), state);
  drawFair();
  if (linkNames !== null && saved.invites.map(inviteName).join("\n") !== linkNames) drawLinks();
  showEnd();
}

/** A pushed state with its board whole: the first of a connection holds the static part
 * (kept here), the later ones get it back from there. */
function wholeBoard(incoming) {
  const board = incoming.view && incoming.view.board;
  const keys = incoming.static_board_keys || [];
  if (!board || !keys.length) return incoming;
  if (keys.every((key) => key in board)) {
    staticBoard = Object.fromEntries(keys.map((key) => [key, board[key]]));
  } else if (staticBoard) {
    incoming.view.board = {...staticBoard, ...board};
  }
  return incoming;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // The server writes the log, the choices and the board's words in the page's language.
  const query = `?lang=${LANG}` + (tokens.length ? `&token=${encodeURIComponent(tokens.join(","))}` : "");
  socket = new WebSocket(`${scheme}://${location.host}/ws/matches/${encodeURIComponent(matchId)}${query}`);
  socket.onopen = () => {
    retry = 500;
    $("conn").textContent = "";
    // A message about the lost connection (or a busy database refusing it) is over once it
    // is back.
    const shown = $("error").textContent;
    if (shown === NOT_CONNECTED || (shown && shown === busyRefusal)) showError("");
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      const first = state === null;
      state = wholeBoard(message.state);
      waiting = false;
      if (first) drawLinks();
      render();
    } else if (message.type === "error") {
      waiting = false;
      showError(message.message);
      // A refused connection is final, unless the database was busy (503): then reconnect.
      if (message.id === null && message.status === 503) { busyRefusal = message.message; return; }
      if (message.id === null) { socket.onclose = null; $("conn").textContent = t("Cannot open this match."); return; }
      if (state) render();
    } else if (message.type === "ack") {
      waiting = false;
    } else if (message.type === "hint") {
      hinted = message;
      drawHint(actingSeat());
    }
  };
  socket.onclose = (event) => {
    $("conn").textContent = navigator.onLine === false ? OFFLINE : t("Reconnecting…");
    // 1012: the server gave up its copy of the match (fanout.py): the new one is ready now.
    reconnecting = setTimeout(connect, event.code === 1012 ? 0 : retry);
    retry = Math.min(retry * 2, 5000);
  };
}

// A phone that leaves the network says so at once, and reconnects as soon as it is back
// (not at the end of the back-off: the next person may be waiting).
const OFFLINE = t("Offline: the game goes on when the network is back.");
let reconnecting = null;
addEventListener("offline", () => { $("conn").textContent = OFFLINE; });
addEventListener("online", () => {
  if (socket && socket.readyState === WebSocket.OPEN) {
    if ($("conn").textContent === OFFLINE) $("conn").textContent = "";
    return;
  }
  clearTimeout(reconnecting);
  retry = 500;
  $("conn").textContent = t("Reconnecting…");
  if (!socket || socket.readyState === WebSocket.CLOSED) connect();
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  const index = Number(event.key) - 1;
  const buttons = $("choices").querySelectorAll("button.choice:not([hidden])");
  if (index >= 0 && index < buttons.length && index < 9) { buttons[index].click(); event.preventDefault(); }
  if (event.key === "u" && state && state.can_undo) $("undo").click();
  if (event.key === "h" && !$("hint").hidden) askHint();
});
$("hint").addEventListener("click", askHint);
$("undo").addEventListener("click", () => { showError(""); send({type: "undo"}); });
$("record").href = `/api/matches/${encodeURIComponent(matchId)}/record`;
$("replay-link").href = `/replay/${encodeURIComponent(matchId)}`;
$("end-replay").href = `/replay/${encodeURIComponent(matchId)}`;
$("end-review").href = `/replay/${encodeURIComponent(matchId)}?review=1`;
$("again").addEventListener("click", again);
$("end-close").addEventListener("click", () => $("end").close());
drawLinks();
connect();
servedOrigin().then((served) => { if (served !== origin) { origin = served; drawLinks(); } });
