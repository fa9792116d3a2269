// Home page: every game as a card with a picture of its own board in a sample position,
// one tap to play against the computer, or a set-up to choose players, options and dice.
import {api, drawBoard, el, t} from "/static/shell.js";
import {showPhoneAccess} from "/static/lan.js";
import {askName, nameLine} from "/static/player-name.js";
import {startLobby} from "/static/lobby.js";
import {drawHowto} from "/static/howto.js";
import {refreshLevelTitles} from "/static/strength.js";

const $ = (id) => document.getElementById(id);
let games = [];
let current = null;

function playerRow(game, index, kind = "here") {
  const kinds = [["here", t("Person here")], ["invited", t("Invited (link)")],
    ...game.bots.filter((b) => b.listed)
      .map((b) => [`bot:${b.name}`, t("Bot: {level}", {level: t(b.name)}), b.plain])];
  const select = el("select", {"aria-label": t("Player {number} kind", {number: index + 1}), class: "kind"},
    ...kinds.map(([value, label, doc]) => el("option", {value, selected: value === kind,
      text: label, title: doc || null})));
  const name = el("input", {type: "text", maxlength: 40, class: "name",
    "aria-label": t("Player {number} name", {number: index + 1}),
    value: kind.startsWith("bot:") ? "" : t("Player {number}", {number: index + 1}),
    placeholder: t("name")});
  select.addEventListener("change", () => {
    if (select.value.startsWith("bot:") && /^\D+ \d+$/.test(name.value)) name.value = "";
  });
  const remove = el("button", {type: "button", class: "remove",
    "aria-label": t("Remove player {number}", {number: index + 1}),
    text: "✕", onclick: () => { row.remove(); renumber(); }});
  const row = el("li", {class: "player"}, select, name, remove);
  return row;
}

function renumber() {
  const rows = [...$("players").children];
  rows.forEach((row, i) => {
    row.querySelector(".kind").setAttribute("aria-label", t("Player {number} kind", {number: i + 1}));
    row.querySelector(".name").setAttribute("aria-label", t("Player {number} name", {number: i + 1}));
    row.querySelector(".remove").disabled = rows.length <= current.min_players;
  });
  $("add-player").disabled = rows.length >= current.max_players;
  refreshLevelTitles(rows, current);
}

/** One option: its label, its input, and its plain explanation (linked for screen readers).
 * A checkbox comes before its label, the way forms show them. */
function optionField(option) {
  const id = `opt-${option.name}`;
  const help = el("small", {id: `${id}-help`, text: option.doc});
  let input;
  if (option.kind === "bool") {
    input = el("input", {type: "checkbox", id, checked: option.default === true});
  } else if (option.kind === "choice") {
    input = el("select", {id}, ...option.choices.map((c, i) =>
      el("option", {value: c, selected: c === option.default,
        text: option.choice_labels[i] || c})));
  } else if (option.kind === "int") {
    input = el("input", {type: "number", id, min: option.minimum, max: option.maximum,
      value: option.default});
  } else {
    input = el("input", {type: "text", id, value: option.default});
  }
  input.dataset.option = option.name;
  input.dataset.kind = option.kind;
  input.setAttribute("aria-describedby", help.id);
  const label = el("label", {for: id, text: option.label});
  if (option.kind === "bool") {
    return el("div", {class: "option check"}, el("span", {class: "pair"}, input, label), help);
  }
  return el("div", {class: "option"}, label, input, help);
}

async function choose(game) {
  current = game;
  for (const button of $("games").querySelectorAll(".game-card .choose")) {
    button.setAttribute("aria-pressed", button.closest(".game-card").dataset.id === game.id);
  }
  $("setup").hidden = false;
  $("setup-title").textContent = game.name;
  $("pitch").textContent = game.pitch;
  $("rules-html").textContent = t("Loading the rules…");
  const rows = [playerRow(game, 0, "here")];
  const bot = game.bots.find((b) => b.name === "medium") || game.bots[0];
  for (let i = 1; i < game.default_players; i++) rows.push(playerRow(game, i, `bot:${bot.name}`));
  $("players").replaceChildren(...rows);
  renumber();
  // Options naming files on the server cannot be set from the web.
  const shown = game.options.filter((o) => o.kind !== "file");  // boards from files: CLI only
  $("options").replaceChildren(...shown.map(optionField));
  $("options-set").hidden = shown.length === 0;
  $("position").value = "";
  $("position").placeholder = t("e.g. {example}", {example: "48/46 1 decide 4 7"});
  $("setup").scrollIntoView({behavior: "smooth", block: "start"});
  const full = await api(`/api/games/${game.id}`);
  // The rules lead with the family summary, its pictures drawn by the game's own board.
  const short = el("section", {class: "howto-summary", "aria-labelledby": "howto-short"});
  const details = el("div");
  details.innerHTML = full.rules_details_html;  // rendered server-side with raw HTML disabled
  details.insertBefore(short, details.querySelector("h2"));  // after the title and lead
  $("rules-html").replaceChildren(details);
  const body = el("div");
  if (await drawHowto(body, game.id).catch(() => "")) {
    short.replaceChildren(el("h2", {id: "howto-short", text: t("The game in short")}), body);
  } else {
    short.remove();
  }
}

/** Create the match and open it; `local` says which seats play on this device. */
async function launch(body, local, setup) {
  const match = await api("/api/matches", body);
  const tokens = match.seats.filter((s) => s.token && local[s.seat]).map((s) => s.token);
  const invites = match.seats.filter((s) => s.token && !local[s.seat])
    .map((s) => ({seat: s.seat, name: s.name, link: s.link}));
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
    return {name: name || t(bot ? "Bot {number}" : "Player {number}", {number: i + 1}),
      kind: bot ? kind : "human", invited: kind === "invited",
      local: kind === "here"};
  });
  const open = $("open-table").checked;
  if (open && !players.some((p) => p.invited)) {
    $("setup-error").textContent = t("An open table needs an invited player: choose “Invited (link)” for a seat someone may take.");
    return;
  }
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind;
    options[input.dataset.option] = kind === "bool" ? input.checked
      : kind === "int" ? Number(input.value) : input.value;
  }
  const dice = document.querySelector("input[name=dice]:checked").value;
  const body = {game: current.id, players: players.map(({name, kind, invited}) => ({name, kind, invited})),
    options, dice, open};
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
  const name = await askName();  // asked once on this device, then remembered
  if (name === null) return;
  const players = [{name, kind: "human"}];
  for (let i = 1; i < Math.max(2, game.min_players); i++) {
    players.push({name: i > 1 ? t("Computer {number}", {number: i}) : t("Computer"),
      kind: `bot:${bot.name}`});
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
    text: t("Play against the computer")});
  play.addEventListener("click", () => playNow(game, play, error));
  const facts = [t("{low}–{high} players", {low: game.min_players, high: game.max_players})];
  if (game.minutes[1]) facts.push(t("{low}–{high} min", {low: game.minutes[0], high: game.minutes[1]}));
  if (game.age) facts.push(t("ages {age}+", {age: game.age}));
  const title = el("h2", {id: `card-${game.id}`, text: game.name});
  const node = el("li", {class: "game-card", "data-id": game.id, "aria-labelledby": title.id},
    picture, title, el("p", {class: "facts", text: facts.join(" · ")}),
    el("p", {class: "pitch", text: game.pitch}),
    el("div", {class: "card-actions"}, play,
      el("button", {type: "button", class: "choose", "aria-pressed": "false",
        text: t("Choose players and options"), onclick: () => choose(game)})),
    error);
  // The picture: the game's own board module drawing a sample position, once the card
  // comes near the screen (a phone shows a card or two: the others wait until scrolled to).
  whenNear(picture, () => api(`/api/games/${game.id}/sample`).then((sample) => drawBoard(picture, sample, {
    hints: [], pick: () => {}, seat: null, deciding: [], picture: true,
    names: sample.players.map((p) => p.name)})).catch(() => picture.remove()));
  return node;
}

const drawings = new Map();
const near = new IntersectionObserver((entries) => {
  for (const entry of entries.filter((e) => e.isIntersecting)) {
    near.unobserve(entry.target);
    drawings.get(entry.target)();
    drawings.delete(entry.target);
  }
}, {rootMargin: "0px 0px 50% 0px"});

/** Call `draw` once `element` is on the screen or half a screen below it. */
function whenNear(element, draw) {
  drawings.set(element, draw);
  near.observe(element);
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
    $("replay-error").textContent = error instanceof SyntaxError ? t("That file is not JSON.") : error.message;
  }
}

// The games, asked again (after 1, 2, 4… up to 15 s) while the server cannot answer (it is
// restarting, the network dropped): the page says so meanwhile, and fills itself when it can.
async function loadGames() {
  for (let wait = 1000; ; wait = Math.min(2 * wait, 15000)) {
    try {
      const found = (await api("/api/games")).games;
      $("games-error").textContent = "";
      return found;
    } catch (error) {
      $("games-error").textContent = t("The games could not be loaded ({reason}): trying again…",
                                       {reason: error.message});
      await new Promise((done) => setTimeout(done, wait));
    }
  }
}

async function main() {
  $("record-file").addEventListener("change", uploadRecord);
  $("open-record").addEventListener("click", () => $("record-file").click());
  games = await loadGames();
  $("games").replaceChildren(...games.map(card));
  $("games").before(nameLine());  // the quick start's remembered name, and how to change it
  $("add-player").addEventListener("click", () => {
    const bot = current.bots.find((b) => b.name === "medium") || current.bots[0];
    $("players").append(playerRow(current, $("players").children.length, `bot:${bot.name}`));
    renumber();
  });
  $("setup-form").addEventListener("submit", start);
  startLobby();
  showPhoneAccess($("phone-access"));
  const wanted = new URLSearchParams(location.search).get("game");
  const game = games.find((g) => g.id === wanted);
  if (game) choose(game);
}

main();
