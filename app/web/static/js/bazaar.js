// Bazaar's table: the exchange table, the bag, the four stalls and every carpet.
// What a seat may do, and what a ware would score, come from the API (legal, offers).
import { html, useState } from "./lib.js";

const COLOURS = ["red", "green", "blue", "white", "yellow"];
// Each colour has its own shape too, so that stones read without colour perception.
const SHAPES = { red: "circle", green: "triangle", blue: "diamond", white: "hexagon", yellow: "square" };

export function Stone({ colour, size = 22 }) {
  const r = size / 2 - 2;
  const c = size / 2;
  let body;
  switch (SHAPES[colour]) {
    case "circle":
      body = html`<circle cx=${c} cy=${c} r=${r} />`;
      break;
    case "triangle":
      body = html`<polygon points=${`${c},${c - r} ${c + r},${c + r * 0.8} ${c - r},${c + r * 0.8}`} />`;
      break;
    case "diamond":
      body = html`<polygon points=${`${c},${c - r} ${c + r},${c} ${c},${c + r} ${c - r},${c}`} />`;
      break;
    case "hexagon": {
      const points = Array.from({ length: 6 }, (_, i) => {
        const a = (Math.PI / 3) * i;
        return `${(c + r * Math.cos(a)).toFixed(1)},${(c + r * Math.sin(a)).toFixed(1)}`;
      });
      body = html`<polygon points=${points.join(" ")} />`;
      break;
    }
    default:
      body = html`<rect x=${c - r * 0.85} y=${c - r * 0.85} width=${r * 1.7} height=${r * 1.7} />`;
  }
  return html`<svg class=${`stone ${colour}`} width=${size} height=${size} viewBox=${`0 0 ${size} ${size}`} aria-hidden="true">${body}</svg>`;
}

function Stones({ colours, size }) {
  return html`<span class="stones">${colours.map((c) => html`<${Stone} colour=${c} size=${size} />`)}</span>`;
}

/** "2 red, 1 blue" */
export function stoneWords(colours) {
  const counts = COLOURS.map((c) => [c, colours.filter((x) => x === c).length]).filter(([, n]) => n);
  return counts.map(([c, n]) => `${n} ${c}`).join(", ") || "nothing";
}

function priceWords(price) {
  const kind = price.kind === "precious" ? "precious" : "cheap";
  const side = price.stall_empty ? ", a stall is empty" : "";
  return `${price.points} points (${kind}, ${price.left} ${price.left === 1 ? "stone" : "stones"} left${side})`;
}

const PHASES = {
  choose_colour: "Choose your joker's colour.",
  draw_or_trade: "Draw a stone from the bag, or make one trade.",
  buy_or_end: "Buy a ware, or end your turn.",
  over: "The game is over.",
};

export function BazaarBoard({ view, send, busy, readOnly = false }) {
  const state = view.state;
  const me = view.seat;
  const legal = readOnly ? [] : view.legal;
  const [pointing, setPointing] = useState(null); // [equation, side]
  const find = (predicate) => legal.find(predicate);
  const act = (command) => command && !busy && send(command);
  const draw = find((c) => c.type === "draw");
  const end = find((c) => c.type === "end_turn");
  const mine = me !== null && state.to_play === me;
  const toPlay = state.to_play === null ? null : view.seats[state.to_play];

  return html`
    <section class="bazaar" aria-label="Bazaar table">
      <p class="phase" role="status">${state.phase === "over" ? PHASES.over
        : mine ? `Your turn: ${PHASES[state.phase]}` : `${toPlay ? toPlay.name : "Someone"} is playing: ${PHASES[state.phase]}`}</p>
      <div class="bazaar-grid">
        <section class="exchange" aria-labelledby="exchange-title">
          <h2 id="exchange-title">Exchange table</h2>
          <p class="hint">Point at a side to see which way a trade goes; click it to take that side and pay the other.</p>
          <ol>
            ${state.exchange.map((eq) => {
              const take = (side) => find((c) => c.type === "trade" && c.equation === eq.index
                && c.direction === (side === "right" ? "left_to_right" : "right_to_left"));
              const arrow = pointing && pointing[0] === eq.index ? (pointing[1] === "right" ? "→" : "←") : "⇄";
              const side = (which, stones, other) => html`
                <button type="button" class=${`side ${which}`} disabled=${!take(which) || busy}
                  aria-label=${`Take ${stoneWords(stones)}, pay ${stoneWords(other)}`}
                  onPointerEnter=${() => setPointing([eq.index, which])} onPointerLeave=${() => setPointing(null)}
                  onFocus=${() => setPointing([eq.index, which])} onBlur=${() => setPointing(null)}
                  onClick=${() => act(take(which))}>
                  <${Stones} colours=${stones} size=${20} />
                </button>`;
              return html`<li>
                ${side("left", eq.left, eq.right)}
                <span class="arrow" aria-hidden="true">${arrow}</span>
                ${side("right", eq.right, eq.left)}
              </li>`;
            })}
          </ol>
        </section>
        <section class="bag" aria-labelledby="bag-title">
          <h2 id="bag-title">The bag</h2>
          <p class="hint">Six faces, equally likely: ${state.bag.join(", ")}.</p>
          <button type="button" class="primary" disabled=${!draw || busy} onClick=${() => act(draw)}>Draw a stone</button>
          ${state.joker && html`
            <fieldset class="joker">
              <legend>${mine ? "A joker: choose its colour" : "A joker was drawn: its colour is being chosen"}</legend>
              ${COLOURS.map((colour) => {
                const choose = find((c) => c.type === "choose_colour" && c.colour === colour);
                return html`<button type="button" disabled=${!choose || busy} onClick=${() => act(choose)}
                  aria-label=${`Choose ${colour}`}><${Stone} colour=${colour} /> ${colour}</button>`;
              })}
            </fieldset>`}
          <button type="button" disabled=${!end || busy} onClick=${() => act(end)}>End turn</button>
        </section>
        <section class="stalls" aria-labelledby="stalls-title">
          <h2 id="stalls-title">Stalls</h2>
          <p class="hint">${state.stall_empty ? "A stall is empty: wares are worth more." : "Every stall has wares."}</p>
          <ul>
            ${state.stalls.map((stall) => {
              const buy = find((c) => c.type === "buy" && c.stall === stall.stall);
              const offer = stall.offer;
              return html`<li class="stall">
                <h3>Stall ${stall.stall + 1} <small>(${stall.count} ${stall.count === 1 ? "ware" : "wares"})</small></h3>
                ${stall.top ? html`
                  <${Stones} colours=${stall.top.stones} size=${22} />
                  <p>${stall.top.precious ? "Precious" : "Cheap"}: ${stoneWords(stall.top.stones)}</p>
                  ${offer && html`<p class="offer">${offer.price ? `Buying it now: ${priceWords(offer.price)}` : `You lack ${offer.missing.join(", ")}`}</p>`}
                  ${me !== null && !readOnly && html`<button type="button" disabled=${!buy || busy} onClick=${() => act(buy)}
                    aria-label=${`Buy the ware of stall ${stall.stall + 1}`}>Buy</button>`}`
                : html`<p>Empty.</p>`}
              </li>`;
            })}
          </ul>
        </section>
      </div>
      <section class="carpets" aria-labelledby="carpets-title">
        <h2 id="carpets-title">Carpets</h2>
        <ul>
          ${state.seats.map((s) => {
            const stones = COLOURS.flatMap((c) => Array(s.carpet[c]).fill(c));
            return html`<li class=${state.to_play === s.seat ? "acting" : ""}>
              <strong>${s.name}</strong>: ${s.score} points, ${s.wares} ${s.wares === 1 ? "ware" : "wares"}
              <div class="carpet" aria-label=${`${s.name}'s carpet: ${stoneWords(stones)}`} role="img">
                <${Stones} colours=${stones} size=${18} /></div>
            </li>`;
          })}
        </ul>
      </section>
      <details class="prices">
        <summary>Price table</summary>
        <table>
          <thead><tr><th scope="col">Ware</th><th scope="col">Stalls</th><th scope="col">0 left</th><th scope="col">1</th><th scope="col">2</th><th scope="col">3+</th></tr></thead>
          <tbody>${state.prices.map((row) => html`<tr><th scope="row">${row.kind}</th><td>${row.stall_empty ? "one empty" : "all stocked"}</td>${row.points.map((p) => html`<td>${p}</td>`)}</tr>`)}</tbody>
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
    return `${s.stones} stones, ${s.wares} wares`;
  },
  scoreLine: (view, seat) => {
    const sales = view.state.sales.filter((s) => s.seat === seat);
    return `${sales.length} ${sales.length === 1 ? "ware" : "wares"}: ${sales.map((s) => s.price.points).join(" + ") || "none"}`;
  },
};
