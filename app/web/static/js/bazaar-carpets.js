// The carpets: yours near the top, the others' smaller (folded on a phone). The stones a
// carpet gained since your last move are ringed, and what it gained and paid is said in words,
// with the seat's number.
import { html, useState } from "./lib.js";
import { SeatBadge, seatClass } from "./moves.js";
import { Stones } from "./bazaar-stones.js";
import { COLOURS, changeWords, plural, stoneWords } from "./bazaar-words.js";

const PHONE = "(max-width: 600px)";

function Carpet({ seat, change, acting, size, you, since = "since your move" }) {
  const stones = COLOURS.flatMap((c) => Array(seat.carpet[c]).fill(c));
  const fresh = change ? Object.fromEntries(COLOURS.map((c) => [c, Math.max(0, change[c])])) : null;
  const said = change ? changeWords(change) : "";
  return html`<div class=${`carpet-card ${seatClass(seat.seat)}${acting ? " acting" : ""}`} data-seat=${seat.seat}>
    <p class="owner"><${SeatBadge} seat=${seat.seat} /> <strong>${you ? "Your carpet" : seat.name}</strong>${" "}<span class="tally">${you ? `${plural(stones.length, "stone")}, ${plural(seat.score, "point")}, ${plural(seat.wares, "ware")}` : plural(seat.score, "point")}</span></p>
    <div class="carpet" role="img" aria-label=${`${you ? "Your" : `${seat.name}'s`} carpet: ${stoneWords(stones)}${said ? `; ${since}: ${said}` : ""}`}>
      <${Stones} colours=${stones} size=${size} fresh=${fresh} /></div>
    ${said && html`<p class="change" aria-hidden="true"><span class="ring-key"></span> ${since}: ${said}</p>`}
  </div>`;
}

export function MyCarpet({ view, state, changes }) {
  const me = view.seat;
  return html`<section class="bazaar-mine" aria-label="Your carpet">
    <${Carpet} seat=${state.seats[me]} change=${changes.get(me)} acting=${state.to_play === me} size=${20} you=${true} />
  </section>`;
}

export function OtherCarpets({ view, state, changes }) {
  const [open, setOpen] = useState(() => !(window.matchMedia && window.matchMedia(PHONE).matches));
  const others = state.seats.filter((s) => s.seat !== view.seat);
  if (!others.length) return null;
  const changed = others.filter((s) => changes.has(s.seat)).length;
  return html`<details class="bazaar-others" open=${open} onToggle=${(e) => setOpen(e.currentTarget.open)}>
    <summary>${view.seat === null ? "Carpets" : "The others' carpets"} <small>(${changed} changed ${view.seat === null ? "this round" : "since your move"})</small></summary>
    <ul>${others.map((s) => html`<li key=${s.seat}>
      <${Carpet} seat=${s} change=${changes.get(s.seat)} acting=${state.to_play === s.seat} size=${15} you=${false}
        since=${view.seat === null ? "this round" : "since your move"} /></li>`)}</ul>
  </details>`;
}
