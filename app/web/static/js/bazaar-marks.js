// Bazaar's last moves, read from the log (event types of domain/bazaar/model.py), to be marked
// where they happened: each seat's last stone from the bag, the last trade at the exchange
// table, each stall's last sale, and what each carpet gained or paid since your last move.
// Nothing here knows a rule: it only reads what the events say.
import { lastBySeat, sinceMine } from "./moves.js";
import { COLOURS } from "./bazaar-words.js";

const DRAWS = ["drawn", "colour_chosen"];

/** Each seat's last stone from the bag, newest first: {seat, colour (null while a joker's
 * colour is being chosen), joker, version}. */
export function lastDraws(log) {
  const found = [...lastBySeat(log, DRAWS).entries()].map(([seat, entry]) => {
    const e = entry.event;
    if (e.type === "colour_chosen") return { seat, colour: e.stone, joker: true, version: entry.version };
    return { seat, colour: e.face === "joker" ? null : e.face, joker: e.face === "joker", version: entry.version };
  });
  return found.sort((a, b) => b.version - a.version);
}

/** Each seat's last trade (Map seat → entry), and the newest of all (or null). */
export function lastTrades(log) {
  const bySeat = lastBySeat(log, ["traded"]);
  let newest = null;
  for (const entry of bySeat.values()) if (!newest || entry.version > newest.version) newest = entry;
  return { bySeat, newest };
}

/** Each stall's last sale (Map stall → entry), and the version of the newest sale (or null). */
export function lastSales(log) {
  const byStall = new Map();
  let newest = null;
  for (const entry of log || []) {
    if (entry.event.type !== "ware_bought") continue;
    byStall.set(entry.event.stall, entry);
    newest = entry.version;
  }
  return { byStall, newest };
}

/** The entries after the end of `seat`'s last finished turn (its turn now in play included). */
function sinceTurn(log, seat) {
  let from = 0;
  log.forEach((entry, k) => {
    if (entry.by === seat && (entry.event.type === "turn_ended" || entry.event.type === "ware_bought")) from = k + 1;
  });
  return log.slice(from);
}

function none() {
  return Object.fromEntries(COLOURS.map((c) => [c, 0]));
}

/** What each carpet gained and paid (by colour, net) since `seat`'s last move: Map seat →
 * {red: +1, blue: -2, …}, seats whose carpet did not change left out. A watcher (`seat` null)
 * sees the changes since the seat to play last ended a turn: one round. */
export function carpetChanges(log, seat, toPlay) {
  const since = seat !== null && seat !== undefined ? sinceMine(log, seat) : sinceTurn(log || [], toPlay);
  const changes = new Map();
  const add = (who, colours, sign) => {
    if (!changes.has(who)) changes.set(who, none());
    const change = changes.get(who);
    for (const c of colours) change[c] += sign;
  };
  for (const { event: e } of since) {
    if (e.type === "drawn" && e.face !== "joker") add(e.seat, [e.face], 1);
    else if (e.type === "colour_chosen") add(e.seat, [e.stone], 1);
    else if (e.type === "traded") {
      add(e.seat, e.took, 1);
      add(e.seat, e.gave, -1);
    } else if (e.type === "ware_bought") add(e.seat, e.ware.stones, -1);
  }
  for (const [who, change] of changes) if (COLOURS.every((c) => !change[c])) changes.delete(who);
  return changes;
}
