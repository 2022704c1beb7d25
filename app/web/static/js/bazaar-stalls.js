// The four stalls: each top ware, what buying it would score you now (from the API's offer),
// and the stall's last sale: who bought which ware for how many points, in the buyer's colour
// and number, until the next sale there; the newest sale of all is outlined.
import { html } from "./lib.js";
import { SeatBadge, seatClass } from "./moves.js";
import { Stones } from "./bazaar-stones.js";
import { plural, priceWords, stoneWords, wareWords } from "./bazaar-words.js";
import { lastSales } from "./bazaar-marks.js";
import { NewestInView } from "./bazaar-in-view.js";

function Sold({ view, entry }) {
  const e = entry.event;
  const name = view.seats[e.seat].name;
  return html`<p class=${`sold ${seatClass(e.seat)}`} data-seat=${e.seat}>
    <${SeatBadge} seat=${e.seat} />
    <span class="visually-hidden">Last sold here: ${name} bought ${wareWords(e.ware)} for ${plural(e.price.points, "point")}.</span>
    <span aria-hidden="true">${name} bought <${Stones} colours=${e.ware.stones} size=${12} /> for ${plural(e.price.points, "point")}</span>
  </p>`;
}

export function Stalls({ view, state, find, act, busy, readOnly, log }) {
  const me = view.seat;
  const { byStall, newest } = lastSales(log);
  return html`
    <section class="stalls" aria-labelledby="stalls-title">
      <h2 id="stalls-title">Stalls</h2>
      <${NewestInView} log=${log} seat=${me} />
      <p class="hint">${state.stall_empty ? "A stall is empty: wares are worth more." : "Every stall has wares."}</p>
      <ul>
        ${state.stalls.map((stall) => {
          const buy = find((c) => c.type === "buy" && c.stall === stall.stall);
          const offer = stall.offer;
          const sold = byStall.get(stall.stall);
          const fresh = sold && sold.version === newest;
          return html`<li class=${`stall${fresh ? ` last-sale ${seatClass(sold.event.seat)}` : ""}`}>
            <h3>Stall ${stall.stall + 1} <small>(${plural(stall.count, "ware")})</small></h3>
            ${stall.top ? html`
              <div class="ware">
                <${Stones} colours=${stall.top.stones} size=${20} />
                <span class="kind" aria-hidden="true">${stall.top.precious ? "precious" : "cheap"}</span>
                ${me !== null && !readOnly && html`<button type="button" disabled=${!buy || busy} onClick=${() => act(buy)}
                  aria-label=${`Buy the ware of stall ${stall.stall + 1}`}>Buy</button>`}
              </div>
              <p class="visually-hidden">${stall.top.precious ? "Precious" : "Cheap"}: ${stoneWords(stall.top.stones)}</p>
              ${offer && html`<p class="offer">${offer.price ? `Scores you ${priceWords(offer.price)}` : `You lack ${stoneWords(offer.missing)}`}</p>`}`
            : html`<p>Empty.</p>`}
            ${sold && html`<${Sold} view=${view} entry=${sold} />`}
          </li>`;
        })}
      </ul>
    </section>`;
}
