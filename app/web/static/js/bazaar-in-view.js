// On a phone Bazaar is one long column with the turn's actions held at the foot of the screen:
// another seat's newest move (a stone from the bag, a trade, a purchase) is brought into view
// where it is marked, above that bar, as it is made. Nothing moves while the table is off the
// screen (the player reading the log or the chat below it), nor for the moves the page opened on.
import { html, useEffect, useRef } from "./lib.js";
import { lastDraws, lastSales, lastTrades } from "./bazaar-marks.js";

/** The phone's layout of bazaar.css. */
const PHONE = "(max-width: 600px)";

/** The newest marked move: {version, seat, selector} of where it is marked, or null. */
export function newestMark(log) {
  const found = [];
  const [draw] = lastDraws(log);
  if (draw) found.push({ version: draw.version, seat: draw.seat, selector: ".draws .draw.newest" });
  const { newest: trade } = lastTrades(log);
  if (trade) found.push({ version: trade.version, seat: trade.event.seat, selector: ".exchange li.traded" });
  const { byStall } = lastSales(log);
  for (const sale of byStall.values()) found.push({ version: sale.version, seat: sale.event.seat, selector: ".stall.last-sale" });
  return found.reduce((a, b) => (!a || b.version > a.version ? b : a), null);
}

function show(table, element) {
  const screen = table.getBoundingClientRect();
  if (screen.bottom <= 0 || screen.top >= window.innerHeight) return;
  const bar = table.querySelector(".bazaar-actions");
  const fixed = bar && getComputedStyle(bar).position === "fixed";
  const bottom = fixed ? Math.min(window.innerHeight, bar.getBoundingClientRect().top) : window.innerHeight;
  const box = element.getBoundingClientRect();
  const margin = 8;
  if (box.top < 0) window.scrollBy(0, box.top - margin);
  else if (box.bottom > bottom) window.scrollBy(0, Math.min(box.bottom - bottom + margin, box.top - margin));
}

/** Renders nothing: brings another seat's newest move into view on a phone (`seat` is the
 *  viewer's, null for a watcher). */
export function NewestInView({ log, seat }) {
  const here = useRef(null);
  const mark = newestMark(log);
  const seen = useRef(mark ? mark.version : null);
  useEffect(() => {
    if (!mark || mark.version === seen.current) return;
    seen.current = mark.version;
    const table = here.current && here.current.closest(".bazaar");
    if (mark.seat === seat || !table || !window.matchMedia(PHONE).matches) return;
    const element = table.querySelector(mark.selector);
    if (element) show(table, element);
  }, [mark && mark.version]);
  return html`<span ref=${here} hidden></span>`;
}
