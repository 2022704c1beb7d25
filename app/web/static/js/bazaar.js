// Bazaar's table: the exchange table, the bag, the four stalls and every carpet, each with the
// last moves marked where they happened (js/bazaar-marks.js reads them from the log).
// What a seat may do, and what a ware would score, come from the API (legal, offers).
import { html, useState } from "./lib.js";
import { Actions, Draws } from "./bazaar-bag.js";
import { Exchange } from "./bazaar-exchange.js";
import { Stalls } from "./bazaar-stalls.js";
import { MyCarpet, OtherCarpets } from "./bazaar-carpets.js";
import { carpetChanges } from "./bazaar-marks.js";
import { plural } from "./bazaar-words.js";

export { Stone } from "./bazaar-stones.js";
export { stoneWords } from "./bazaar-words.js";

const PHASES = {
  choose_colour: "Choose your joker's colour.",
  draw_or_trade: "Draw a stone from the bag, or make one trade.",
  buy_or_end: "Buy a ware, or end your turn.",
  over: "The game is over.",
};

export function BazaarBoard({ view, send, busy, log, readOnly = false }) {
  const state = view.state;
  const me = view.seat;
  const legal = readOnly ? [] : view.legal;
  const [pointing, setPointing] = useState(null); // {equation, side, words}
  const find = (predicate) => legal.find(predicate);
  const act = (command) => command && !busy && send(command);
  const mine = me !== null && state.to_play === me;
  const toPlay = state.to_play === null ? null : view.seats[state.to_play];
  const phase = state.phase === "over" ? PHASES.over
    : mine ? `Your turn: ${PHASES[state.phase]}` : `${toPlay ? toPlay.name : "Someone"} is playing: ${PHASES[state.phase]}`;
  const changes = me === null && state.to_play === null ? new Map() : carpetChanges(log, me, state.to_play);
  const acting = me !== null && !readOnly;
  const shared = { view, state, find, act, busy, log };

  return html`
    <section class=${`bazaar${acting ? " acting-seat" : ""}`} aria-label="Bazaar table">
      <p class="phase" role="status">${phase}</p>
      <div class=${`bazaar-grid${me === null ? " watching" : ""}`}>
        ${me !== null && html`<${MyCarpet} view=${view} state=${state} changes=${changes} />`}
        <section class="bag" aria-labelledby="bag-title">
          <h2 id="bag-title">The bag</h2>
          <p class="hint">Six faces, 1 in 6 each: ${state.bag.join(", ")}.</p>
          ${acting && html`<${Actions} ...${shared} mine=${mine} doing=${pointing ? pointing.words : phase} />`}
          <${Draws} view=${view} log=${log} />
        </section>
        <${Exchange} ...${shared} acting=${acting} pointing=${pointing} setPointing=${setPointing} />
        <${Stalls} ...${shared} readOnly=${readOnly} />
        <${OtherCarpets} view=${view} state=${state} changes=${changes} />
      </div>
      <details class="prices">
        <summary>Price table</summary>
        <table>
          <thead><tr><th scope="col">Ware</th><th scope="col">Stalls</th><th scope="col">0 stones left</th><th scope="col">1</th><th scope="col">2</th><th scope="col">3+</th></tr></thead>
          <tbody>${state.prices.map((row) => html`<tr><th scope="row">${row.kind}</th><td>${row.stall_empty ? "one empty" : "all stocked"}</td>${row.points.map((p) => html`<td>${plural(p, "point")}</td>`)}</tr>`)}</tbody>
        </table>
      </details>
    </section>
  `;
}

export const BAZAAR = {
  title: "Bazaar",
  Board: BazaarBoard,
  seatNote: (view, seat) => {
    const s = view.state.seats[seat];
    return `${plural(s.stones, "stone")}, ${plural(s.wares, "ware")}`;
  },
  scoreLine: (view, seat) => {
    const sales = view.state.sales.filter((s) => s.seat === seat);
    return `${plural(sales.length, "ware")}: ${sales.map((s) => s.price.points).join(" + ") || "none"}`;
  },
};
