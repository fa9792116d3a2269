// Home page: "Join a table", the open tables of this server (matches whose creator invited
// someone by link and ticked "Open table"). The list refreshes by itself; a table's "Join"
// opens a small form for the joiner's name, and the server hands out one free seat's link.
import {api, el, t} from "/static/shell.js";

const REFRESH_MS = 5000;
const NAME_KEY = "dicegames:name";
const shown = new Map();  // table id -> its <li>, kept across refreshes (an open form stays)

/** "2 min ago": a table's age in the page's language. */
function age(seconds) {
  if (seconds < 60) return t("just now");
  if (seconds < 3600) return t("{count} min ago", {count: Math.floor(seconds / 60)});
  return t("{count} h ago", {count: Math.floor(seconds / 3600)});
}

/** The options that differ from the game's defaults, as "label: value". */
function optionsLine(options) {
  return options.map((option) => {
    const value = option.value === null ? t("custom")
      : option.kind === "bool" ? (option.value ? t("on") : t("off")) : String(option.value);
    return `${option.label}: ${value}`;
  }).join(" · ");
}

function facts(table) {
  return [table.host ? t("{name}'s table", {name: table.host}) : t("A table"),
    t("{free} of {count} seats free", {free: table.free, count: table.seats.length}),
    age(table.age)].join(" · ");
}

function seatsLine(table) {
  return table.seats.map((seat) => (seat.free ? t("free seat")
    : seat.kind === "bot" ? t("{name} (bot)", {name: seat.name}) : seat.name)).join(", ");
}

/** A refused join, said in the page's language (the server's code names the reason). */
function refusal(error) {
  return {table_full: t("Someone was quicker: this table has no free seat left."),
    game_over: t("This table's game is over."),
    unknown_table: t("This table is no longer open.")}[error.code] || error.message;
}

function tableItem(table) {
  const id = `table-${table.id}`;
  const title = el("h3", {id: `${id}-title`, text: table.game.name});
  const error = el("p", {class: "error", role: "alert"});
  const name = el("input", {type: "text", id: `${id}-name`, maxlength: 40, required: true,
    autocomplete: "nickname", value: localStorage.getItem(NAME_KEY) || ""});
  const take = el("button", {type: "submit", class: "primary", text: t("Take the seat")});
  const form = el("form", {class: "join-form", id: `${id}-form`, hidden: true},
    el("label", {for: name.id, text: t("Your name")}), name, take);
  const join = el("button", {type: "button", class: "join", "aria-expanded": "false",
    "aria-controls": form.id, "aria-describedby": title.id, text: t("Join")});
  const open = (yes) => {
    form.hidden = !yes;
    join.setAttribute("aria-expanded", String(yes));
    if (yes) name.focus(); else join.focus();
  };
  join.addEventListener("click", () => open(form.hidden));
  form.addEventListener("keydown", (event) => { if (event.key === "Escape") open(false); });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    take.disabled = true;
    try {
      const seat = await api(`/api/tables/${encodeURIComponent(table.id)}/join`,
        {name: name.value.trim()});
      localStorage.setItem(NAME_KEY, seat.name);
      localStorage.setItem(`dicegames:${seat.id}`, JSON.stringify({tokens: [seat.token], invites: []}));
      location.href = seat.link;
    } catch (failure) {
      error.textContent = refusal(failure);
      take.disabled = false;
    }
  });
  const item = el("li", {class: "table-card", "data-id": table.id, "aria-labelledby": title.id},
    title, el("p", {class: "facts"}), el("p", {class: "seats-line"}), el("p", {class: "options-line"}),
    join, form, error);
  return item;
}

/** Fill a table's changing lines (its facts, seats and options). */
function update(item, table) {
  item.querySelector(".facts").textContent = facts(table);
  item.querySelector(".seats-line").textContent = seatsLine(table);
  const options = item.querySelector(".options-line");
  options.textContent = optionsLine(table.options);
  options.hidden = table.options.length === 0;
}

/** Fetch the open tables and update the list in place. A table that went away keeps its
 * card while the person is typing in its form (their join then says why it failed). */
export async function refreshTables() {
  let tables;
  try {
    tables = (await api("/api/tables")).tables;
  } catch {
    return;  // the server is away for a moment: keep what is shown
  }
  const list = document.getElementById("tables");
  const ids = new Set(tables.map((table) => table.id));
  for (const [id, item] of shown) {
    if (!ids.has(id) && !item.contains(document.activeElement)) { item.remove(); shown.delete(id); }
  }
  tables.forEach((table, index) => {
    let item = shown.get(table.id);
    if (!item) { item = tableItem(table); shown.set(table.id, item); }
    update(item, table);
    if (list.children[index] !== item) list.insertBefore(item, list.children[index] || null);
  });
  document.getElementById("no-tables").hidden = shown.size > 0;
}

/** Show the lobby and keep it fresh while the page is visible. */
export function startLobby() {
  refreshTables();
  setInterval(() => { if (!document.hidden) refreshTables(); }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshTables(); });
}
