// The exchange table: each equation's two sides are buttons (take this side, pay the other);
// the last trade is marked on its row, in its seat's colour and number, with what went in and
// what came out; every seat's last trade puts that seat's number on its row.
import { html } from "./lib.js";
import { SeatBadge, seatClass } from "./moves.js";
import { Stones } from "./bazaar-stones.js";
import { stoneWords } from "./bazaar-words.js";
import { lastTrades } from "./bazaar-marks.js";

function LastTrade({ view, entry }) {
  if (!entry) return html`<p class="last-trade none">No trade yet.</p>`;
  const e = entry.event;
  const name = view.seats[e.seat].name;
  return html`<p class=${`last-trade ${seatClass(e.seat)}`} data-seat=${e.seat}>
    <${SeatBadge} seat=${e.seat} />
    <span class="visually-hidden">Last trade: ${name} paid ${stoneWords(e.gave)} and took ${stoneWords(e.took)} (row ${e.equation + 1}).</span>
    <span aria-hidden="true">${name} paid <${Stones} colours=${e.gave} size=${16} /> took <${Stones} colours=${e.took} size=${16} /></span>
  </p>`;
}

export function Exchange({ view, state, find, act, busy, setPointing, pointing, log, acting }) {
  const { bySeat, newest } = lastTrades(log);
  const seatsOn = (index) => [...bySeat.entries()].filter(([, entry]) => entry.event.equation === index).map(([seat]) => seat);
  return html`
    <section class="exchange" aria-labelledby="exchange-title">
      <h2 id="exchange-title">Exchange table</h2>
      <${LastTrade} view=${view} entry=${newest} />
      ${acting && html`<p class="hint">Click a side to take it and pay the other.</p>`}
      <ol>
        ${state.exchange.map((eq) => {
          const take = (side) => find((c) => c.type === "trade" && c.equation === eq.index
            && c.direction === (side === "right" ? "left_to_right" : "right_to_left"));
          const arrow = pointing && pointing.equation === eq.index ? (pointing.side === "right" ? "→" : "←") : "⇄";
          const side = (which, stones, other) => {
            const words = `Take ${stoneWords(stones)}, pay ${stoneWords(other)}`;
            const point = () => setPointing({ equation: eq.index, side: which, words });
            return html`
              <button type="button" class=${`side ${which}`} disabled=${!take(which) || busy} aria-label=${words}
                onPointerEnter=${point} onPointerLeave=${() => setPointing(null)}
                onFocus=${point} onBlur=${() => setPointing(null)}
                onClick=${() => act(take(which))}>
                <${Stones} colours=${stones} size=${18} />
              </button>`;
          };
          const traded = newest && newest.event.equation === eq.index ? newest.event.seat : null;
          const marks = seatsOn(eq.index);
          return html`<li class=${traded !== null ? `traded ${seatClass(traded)}` : ""} data-traded=${traded ?? undefined}>
            ${side("left", eq.left, eq.right)}
            <span class="arrow" aria-hidden="true">${arrow}</span>
            ${side("right", eq.right, eq.left)}
            ${marks.length > 0 && html`<span class="trade-marks" title=${`Last trade of ${marks.map((s) => view.seats[s].name).join(", ")}`}>
              ${marks.map((s) => html`<${SeatBadge} seat=${s} />`)}</span>`}
          </li>`;
        })}
      </ol>
    </section>`;
}
