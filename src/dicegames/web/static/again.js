// Play again, from the end screen of every device at the table: the server creates the
// rematch once (POST /api/matches/{id}/again) and hands each device the tokens of its own
// seats in it, so the host and every phone that joined by its seat link land in the same
// new match. Watchers get a link to the next game once someone has started it.
import {api} from "/static/shell.js";

/** The end screen's "Play again" button (for a device that holds seats) and "Watch the
 * next game" link (for a watcher, once the server says where the rematch is). */
export function drawAgain(state, tokens, button, link) {
  button.hidden = !tokens.length;
  link.hidden = Boolean(tokens.length) || !state.rematch;
  if (state.rematch) link.href = `/m/${encodeURIComponent(state.rematch)}`;
}

/** Ask for the rematch of match `matchId` with the seat tokens this device holds, then go
 * there: by the new seat link for a device that came by one (a phone), else remembering the
 * new tokens on this device as the device that set the game up does. */
export async function playAgain(matchId, tokens, bySeatLink) {
  const answer = await api(`/api/matches/${encodeURIComponent(matchId)}/again`, {tokens});
  if (bySeatLink && answer.seats.length === 1) {
    location.href = answer.seats[0].link;
    return;
  }
  localStorage.setItem(`dicegames:${answer.id}`, JSON.stringify({
    tokens: answer.seats.map((seat) => seat.token), invites: []}));
  location.href = `/m/${encodeURIComponent(answer.id)}`;
}
