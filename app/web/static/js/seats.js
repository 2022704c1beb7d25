// The seats of a table being formed (a TableView of `/api/tables`), in words, and what the
// logged-in player may do at it. Which seat is whose is the server's: nothing is decided here.
import { html } from "./lib.js";
import { api } from "./api.js";

const same = (a, b) => Boolean(a && b) && a.toLowerCase() === b.toLowerCase();

// A seat where someone sits has `player` (their key), `name` and their `rating` at the
// table's game (`provisional` for their first rated games); a seat kept for a player who has
// not sat yet has `reserved` (their name) and perhaps `declined`.

/** The seat a player sits in. */
export const sitting = (s) => Boolean(s.player);
/** A seat kept for a named player who has not answered yet. */
export const waiting = (s) => !s.player && Boolean(s.reserved) && !s.declined;
/** A seat anyone may take. */
export const free = (s) => s.type === "open" && !s.player;

export function seatWords(s) {
  if (s.type === "ai") return `AI (${s.level})`;
  if (sitting(s)) return s.name;
  if (s.declined) return `${s.reserved} declined`;
  if (waiting(s)) return `kept for ${s.reserved}`;
  return "free";
}

/** " (1034)", or " (1000?)" for a provisional rating: a seated player's rating, with words
 * for a screen reader ("rating 1000, provisional"); nothing for a seat nobody sits in. */
export function rating(s) {
  if (!sitting(s) || s.rating === undefined || s.rating === null) return "";
  return html`<span class="rating"> (<span class="visually-hidden">rating </span>${s.rating}${s.provisional
    ? html`<span aria-hidden="true">?</span><span class="visually-hidden">, provisional</span>`
    : ""})</span>`;
}

/** A seat in words, with the rating of who sits there: "Ann (1034)". */
export function seatShown(s) {
  return html`${seatWords(s)}${rating(s)}`;
}

/** Who sits, and what is free: "Ann (1034), AI (normal); 1 free seat; kept for Bob". */
export function whoSits(table) {
  const seated = table.seats.filter((s) => sitting(s) || s.type === "ai");
  const open = table.seats.filter(free).length;
  const kept = table.seats.filter(waiting).map((s) => s.reserved);
  const parts = [];
  if (open) parts.push(`${open} free ${open === 1 ? "seat" : "seats"}`);
  if (kept.length) parts.push(`kept for ${kept.join(", ")}`);
  const who = seated.length ? seated.map((s, n) => html`${n ? ", " : ""}${seatShown(s)}`) : "nobody yet";
  return html`${who}${parts.length ? `; ${parts.join("; ")}` : "; no free seat"}`;
}

/** What `name` may do at the table: the buttons to show. */
export function choices(table, name) {
  if (!name || table.status !== "forming") return { join: false, accept: false, leave: false, start: false };
  const mine = table.seats.some((s) => sitting(s) && same(s.name, name));
  const kept = table.seats.some((s) => waiting(s) && same(s.reserved, name));
  return {
    join: !mine && !kept && table.seats.some(free),
    accept: !mine && kept,
    leave: mine,
    start: mine && same(table.creator, name),
  };
}

export function seatedAt(table, name) {
  return table.seats.some((s) => sitting(s) && same(s.name, name));
}

export const isCreator = (table, name) => same(table.creator, name);

/** The table's answer to one of its actions: `join`, `leave`, `decline`, `start`. */
export function act(table, action, body = {}) {
  return api(`/api/tables/${encodeURIComponent(table.id)}/${action}`, { method: "POST", body });
}
