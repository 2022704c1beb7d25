// A player's rating and a game's result in words, as the players' records show them
// (docs/api.md, "Players' records"): the numbers come from the API; nothing here rates.
import { html } from "./lib.js";
import { GAMES } from "./games.js";

/** Rated games before a rating stops being provisional (the server's PROVISIONAL_GAMES). */
export const SETTLED_AFTER = 10;

/** A game's title, never its id (the id only for a game this client cannot draw). */
export const titleOf = (game) => (GAMES[game] ? GAMES[game].title : game);

/** The address of a player's page. */
export const playerHref = (name) => `/players/${encodeURIComponent(name)}`;

/** The address of a title's leaderboard. */
export const boardHref = (game) => `/leaderboards/${encodeURIComponent(game)}`;

/** "12 May 2026, 14:03" from a server time in ms. */
export const when = (ms) =>
  new Date(ms).toLocaleString("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });

/** "1st", "2nd", "3rd", "4th", "11th", "22nd". */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

/** "1st of 2", "shared 1st of 3" when another seat has the same place, "alone" for one seat. */
export function placeWords(place, seats) {
  if (seats.length === 1) return "played alone";
  const shared = seats.filter((s) => s.place === place).length > 1;
  return `${shared ? "shared " : ""}${ordinal(place)} of ${seats.length}`;
}

/** A name: a link to the player's page when an account sat there, else the name alone. */
export function PlayerName({ name, player }) {
  return player ? html`<a href=${playerHref(name)}>${name}</a>` : html`<span>${name}</span>`;
}

/** A rating as one number; a provisional one with "?" and the words that say so. */
export function Rating({ rating, provisional, rated }) {
  if (!provisional) return html`<strong class="rating">${rating}</strong>`;
  const left = rated === undefined ? "" : `: ${rated} of the first ${SETTLED_AFTER} rated games played`;
  return html`<strong class="rating">${rating}<span aria-hidden="true">?</span></strong>
    <span class="provisional">provisional${left}</span>`;
}

/** "rating +12" / "rating −8" / "rating ±0", with words for a screen reader; never colour
 *  alone (the sign says it). */
export function RatingChange({ change }) {
  const shown = change > 0 ? `+${change}` : change < 0 ? `\u2212${-change}` : "\u00b10";
  const words = change > 0 ? `rating up ${change}` : change < 0 ? `rating down ${-change}` : "rating unchanged";
  const kind = change > 0 ? "up" : change < 0 ? "down" : "same";
  return html`<span class=${`rating-change ${kind}`}><span aria-hidden="true">rating <strong>${shown}</strong></span><span class="visually-hidden">${words}</span></span>`;
}

/** A records page that could not be had: `missing` ([heading, sentence]) for a 404, else the
 * refusal in the API's words; both lead back to the lobby. */
export function Unavailable({ failure, missing }) {
  const [heading, sentence] = failure.status === 404
    ? missing : ["This page cannot be shown", failure.message];
  return html`<h1>${heading}</h1>
    <p class=${failure.status === 404 ? "" : "refusal"} role=${failure.status === 404 ? undefined : "alert"}>${sentence}</p>
    <p><a href="/">Back to the lobby</a></p>`;
}
