// The last moves at a table, read from its log (the entries the viewer may see, each
// {version, at, by, event, text}): what each seat did last, to be marked where it happened.
// Nothing here knows a rule: it only finds events by their type and their seat.
import { html } from "./lib.js";

/** Each seat's colour (CSS `--seat-N`) and its mark, a number, so that no mark is colour alone. */
export const SEAT_COUNT = 6;
export const seatMark = (seat) => String(seat + 1);
export const seatClass = (seat) => `seat-${seat % SEAT_COUNT}`;

/** The seat an entry speaks of: the event's own `seat`, else the seat that sent the command. */
export function seatOf(entry) {
  const own = entry.event && entry.event.seat;
  return own !== undefined && own !== null ? own : entry.by;
}

/** Each seat's newest entry whose event type is one of `types`: a Map seat → entry. */
export function lastBySeat(entries, types) {
  const wanted = new Set(types);
  const found = new Map();
  for (const entry of entries || []) {
    const seat = seatOf(entry);
    if (seat !== null && seat !== undefined && wanted.has(entry.event.type)) found.set(seat, entry);
  }
  return found;
}

/** The entries after `seat`'s own last one (every entry for a watcher, `seat` null), newest last. */
export function sinceMine(entries, seat) {
  const all = entries || [];
  if (seat === null || seat === undefined) return all;
  let from = 0;
  all.forEach((entry, k) => {
    if (entry.by === seat) from = k + 1;
  });
  return all.slice(from);
}

/** A seat's badge: its number on its colour, for a board's marks and the strip. */
export function SeatBadge({ seat }) {
  return html`<span class=${`seat-badge ${seatClass(seat)}`} aria-hidden="true">${seatMark(seat)}</span>`;
}
