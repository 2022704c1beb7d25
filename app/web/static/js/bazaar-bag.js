// The bag: each seat's last stone from it, and the actions of a turn (Draw, End turn, the
// joker's colour). The actions are one bar: beside the bag on a wide screen, held at the foot
// of the viewport on a phone with a summary of your carpet and the move you are making.
import { html } from "./lib.js";
import { SeatBadge, seatClass } from "./moves.js";
import { Stone, Stones } from "./bazaar-stones.js";
import { COLOURS, plural, stoneWords } from "./bazaar-words.js";
import { lastDraws } from "./bazaar-marks.js";

function drawWords(draw, name) {
  if (!draw.joker) return `${name} drew a ${draw.colour} stone`;
  return draw.colour ? `${name} drew the joker: a ${draw.colour} stone` : `${name} drew the joker; its colour is being chosen`;
}

export function Draws({ view, log }) {
  const draws = lastDraws(log);
  if (!draws.length) return html`<p class="draws none">No stone drawn yet.</p>`;
  return html`<ol class="draws" aria-label="Each player's last stone from the bag, newest first">
    ${draws.map((d, k) => html`<li class=${`draw ${seatClass(d.seat)}${k === 0 ? " newest" : ""}`} data-seat=${d.seat} key=${d.seat}>
      <${SeatBadge} seat=${d.seat} />
      ${d.colour ? html`<${Stone} colour=${d.colour} size=${18} />` : html`<span class="joker-mark" aria-hidden="true">?</span>`}
      <span>${drawWords(d, view.seats[d.seat].name)}</span></li>`)}
  </ol>`;
}

export function Actions({ view, state, find, act, busy, mine, doing }) {
  const me = view.seat;
  const draw = find((c) => c.type === "draw");
  const end = find((c) => c.type === "end_turn");
  const carpet = COLOURS.flatMap((c) => Array(state.seats[me].carpet[c]).fill(c));
  return html`
    <div class="bazaar-actions" role="group" aria-label="Your turn's actions">
      <p class="summary"><span class="visually-hidden">Your carpet: ${stoneWords(carpet)}</span>
        <${SeatBadge} seat=${me} /> <span aria-hidden="true"><${Stones} colours=${carpet} size=${13} />
        ${plural(carpet.length, "stone")}, ${plural(state.seats[me].score, "point")}</span></p>
      <p class="doing">${doing}</p>
      <div class="buttons">
        <button type="button" class="primary" disabled=${!draw || busy} onClick=${() => act(draw)}>Draw a stone</button>
        <button type="button" disabled=${!end || busy} onClick=${() => act(end)}>End turn</button>
      </div>
      ${state.joker && html`
        <fieldset class="joker">
          <legend>${mine ? "A joker: choose its colour" : "A joker was drawn: its colour is being chosen"}</legend>
          ${COLOURS.map((colour) => {
            const choose = find((c) => c.type === "choose_colour" && c.colour === colour);
            return html`<button type="button" disabled=${!choose || busy} onClick=${() => act(choose)}
              aria-label=${`Choose ${colour}`}><${Stone} colour=${colour} /> ${colour}</button>`;
          })}
        </fieldset>`}
    </div>`;
}
