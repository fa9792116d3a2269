// Home page: every game as a card with a picture of its own board in a sample position,
// one tap to play against the computer, or a set-up to choose players, options and dice.
import {api, drawBoard, el} from "/static/shell.js";

const $ = (id) => document.getElementById(id);
let games = [];
let current = null;

function playerRow(game, index, kind = "here") {
  const kinds = [["here", "Person here"], ["invited", "Invited (link)"],
    ...game.bots.filter((b) => b.listed)
      .map((b) => [`bot:${b.name}`, `Bot: ${b.name}`, b.doc])];
  const select = el("select", {"aria-label": `Player ${index + 1} kind`, class: "kind"},
    ...kinds.map(([value, label, doc]) => el("option", {value, selected: value === kind,
      text: label, title: doc || null})));
  const name = el("input", {type: "text", maxlength: 40, class: "name",
    "aria-label": `Player ${index + 1} name`, value: kind.startsWith("bot:") ? "" : `Player ${index + 1}`,
    placeholder: "name"});
  select.addEventListener("change", () => {
    if (select.value.startsWith("bot:") && /^Player \d+$/.test(name.value)) name.value = "";
  });
  const remove = el("button", {type: "button", class: "remove", "aria-label": `Remove player ${index + 1}`,
    text: "✕", onclick: () => { row.remove(); renumber(); }});
  const row = el("li", {class: "player"}, select, name, remove);
  return row;
}

function renumber() {
  const rows = [...$("players").children];
  rows.forEach((row, i) => {
    row.querySelector(".kind").setAttribute("aria-label", `Player ${i + 1} kind`);
    row.querySelector(".name").setAttribute("aria-label", `Player ${i + 1} name`);
    row.querySelector(".remove").disabled = rows.length <= current.min_players;
  });
  $("add-player").disabled = rows.length >= current.max_players;
}

function optionField(option) {
  const id = `opt-${option.name}`;
  let input;
  if (option.kind === "bool") {
    input = el("input", {type: "checkbox", id, checked: option.default === true});
  } else if (option.kind === "choice") {
    input = el("select", {id}, ...option.choices.map((c) =>
      el("option", {value: c, selected: c === option.default, text: c})));
  } else if (option.kind === "int") {
    input = el("input", {type: "number", id, min: option.minimum, max: option.maximum,
      value: option.default});
  } else {
    input = el("input", {type: "text", id, value: option.default});
  }
  input.dataset.option = option.name;
  input.dataset.kind = option.kind;
  return el("div", {class: "option"}, el("label", {for: id, text: option.name}), input,
    el("small", {text: option.doc}));
}

async function choose(game) {
  current = game;
  for (const button of $("games").querySelectorAll(".game-card .choose")) {
    button.setAttribute("aria-pressed", button.closest(".game-card").dataset.id === game.id);
  }
  $("setup").hidden = false;
  $("setup-title").textContent = game.name;
  $("pitch").textContent = game.pitch;
  $("rules-html").textContent = "Loading the rules…";
  const rows = [playerRow(game, 0, "here")];
  const bot = game.bots.find((b) => b.name === "medium") || game.bots[0];
  for (let i = 1; i < game.default_players; i++) rows.push(playerRow(game, i, `bot:${bot.name}`));
  $("players").replaceChildren(...rows);
  renumber();
  // Options naming files on the server cannot be set from the web.
  const shown = game.options.filter((o) => !(o.kind === "text" && o.doc.includes("path")));
  $("options").replaceChildren(...shown.map(optionField));
  $("options-set").hidden = shown.length === 0;
  $("position").value = "";
  $("setup").scrollIntoView({behavior: "smooth", block: "start"});
  const full = await api(`/api/games/${game.id}`);
  $("rules-html").innerHTML = full.rules_html;  // rendered server-side with raw HTML disabled
}

/** Create the match and open it; `local` says which seats play on this device. */
async function launch(body, local, setup) {
  const match = await api("/api/matches", body);
  const tokens = match.seats.filter((s) => s.token && local[s.seat]).map((s) => s.token);
  const invites = match.seats.filter((s) => s.token && !local[s.seat])
    .map((s) => ({name: s.name, link: s.link}));
  localStorage.setItem(`dicegames:${match.id}`, JSON.stringify({tokens, invites, setup}));
  location.href = `/m/${match.id}`;
}

async function start(event) {
  event.preventDefault();
  $("setup-error").textContent = "";
  const rows = [...$("players").children];
  const players = rows.map((row, i) => {
    const kind = row.querySelector(".kind").value;
    const name = row.querySelector(".name").value.trim();
    const bot = kind.startsWith("bot:");
    return {name: name || (bot ? `Bot ${i + 1}` : `Player ${i + 1}`), kind: bot ? kind : "human",
      local: kind === "here"};
  });
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind;
    options[input.dataset.option] = kind === "bool" ? input.checked
      : kind === "int" ? Number(input.value) : input.value;
  }
  const dice = document.querySelector("input[name=dice]:checked").value;
  const body = {game: current.id, players: players.map(({name, kind}) => ({name, kind})), options, dice};
  const position = $("position").value.trim();
  if (position) body.position = position;
  const local = players.map((p) => p.local);
  $("start").disabled = true;
  try {
    await launch(body, local, {...body, local});
  } catch (error) {
    $("setup-error").textContent = error.message;
    $("start").disabled = false;
  }
}

/** One tap: you against the game's medium bot (its first listed level otherwise), with
 * the default options and the dice rolled by the app. */
async function playNow(game, button, error) {
  const bot = game.bots.find((b) => b.name === "medium") || game.bots.find((b) => b.listed);
  const players = [{name: "You", kind: "human"}];
  for (let i = 1; i < Math.max(2, game.min_players); i++) {
    players.push({name: i > 1 ? `Computer ${i}` : "Computer", kind: `bot:${bot.name}`});
  }
  const body = {game: game.id, players, options: {}, dice: "auto"};
  const local = players.map((p) => p.kind === "human");
  button.disabled = true;
  error.textContent = "";
  try {
    await launch(body, local, {...body, local});
  } catch (failure) {
    error.textContent = failure.message;
    button.disabled = false;
  }
}

/** A game's card: its board in a sample position, its facts, and the two ways to start. */
function card(game) {
  const picture = el("div", {class: "picture", "aria-hidden": "true", inert: ""});
  const error = el("p", {class: "error", role: "alert"});
  const play = el("button", {type: "button", class: "primary play-now",
    text: "Play against the computer"});
  play.addEventListener("click", () => playNow(game, play, error));
  const facts = [`${game.min_players}–${game.max_players} players`];
  if (game.minutes[1]) facts.push(`${game.minutes[0]}–${game.minutes[1]} min`);
  if (game.age) facts.push(`ages ${game.age}+`);
  const title = el("h2", {id: `card-${game.id}`, text: game.name});
  const node = el("li", {class: "game-card", "data-id": game.id, "aria-labelledby": title.id},
    picture, title, el("p", {class: "facts", text: facts.join(" · ")}),
    el("p", {class: "pitch", text: game.pitch}),
    el("div", {class: "card-actions"}, play,
      el("button", {type: "button", class: "choose", "aria-pressed": "false",
        text: "Choose players and options", onclick: () => choose(game)})),
    error);
  // The picture: the game's own board module drawing a sample position.
  api(`/api/games/${game.id}/sample`).then((sample) => drawBoard(picture, sample, {
    hints: [], pick: () => {}, seat: null, deciding: [], picture: true,
    names: sample.players.map((p) => p.name)})).catch(() => picture.remove());
  return node;
}

async function uploadRecord() {
  const file = $("record-file").files[0];
  if (!file) return;
  $("replay-error").textContent = "";
  try {
    const record = JSON.parse(await file.text());
    const answer = await api("/api/replays", record);
    location.href = answer.replay;
  } catch (error) {
    $("replay-error").textContent = error instanceof SyntaxError ? "That file is not JSON." : error.message;
  }
}

async function main() {
  $("record-file").addEventListener("change", uploadRecord);
  $("open-record").addEventListener("click", () => $("record-file").click());
  games = (await api("/api/games")).games;
  $("games").replaceChildren(...games.map(card));
  $("add-player").addEventListener("click", () => {
    const bot = current.bots.find((b) => b.name === "medium") || current.bots[0];
    $("players").append(playerRow(current, $("players").children.length, `bot:${bot.name}`));
    renumber();
  });
  $("setup-form").addEventListener("submit", start);
  const wanted = new URLSearchParams(location.search).get("game");
  const game = games.find((g) => g.id === wanted);
  if (game) choose(game);
}

main();
