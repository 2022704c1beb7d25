// A Mondo world board, and each seat's last placement on it: the tile outlined in the seat's
// colour with the seat's number in its corner (never colour alone), from the round's start until
// that seat's next placement, however fast an AI played it.
import { html } from "./lib.js";
import { seatClass, seatMark } from "./moves.js";
import { Face } from "./mondo-face.js";
import { COLS, spaceName } from "./mondo-words.js";

export const ROWS = 4;

/** Each seat's last placement of this round, read from the log: a Map seat → space. A tile
 * lifted back into the hand is no longer on the board: its mark goes with it. */
export function lastPlacements(log) {
  const found = new Map();
  for (const entry of log || []) {
    const event = entry.event;
    if (event.type === "round_started") found.clear();
    else if (event.type === "tile_placed") found.set(event.seat, event.space);
    else if (event.type === "placed_lifted") found.delete(event.seat);
  }
  return found;
}

/** Where a seat's last tile lies, in words, for the board's label. */
export function lastWords(seat, space) {
  return space === undefined || !seat.board.some((p) => p.space === space) ? "" : `, last placed: ${spaceName(space)}`;
}

function LastMark({ seat, space, x, y, size }) {
  const r = Math.max(5.5, size * 0.17);
  return html`<g class=${`last-placed ${seatClass(seat)}`} data-seat=${seat} data-space=${space} aria-hidden="true">
    <rect class="halo" x=${x + 1} y=${y + 1} width=${size - 2} height=${size - 2} />
    <rect class="outline" x=${x + 2.5} y=${y + 2.5} width=${size - 5} height=${size - 5} />
    <circle class="badge" cx=${x + size - r} cy=${y + r} r=${r} />
    <text class="badge-number" x=${x + size - r} y=${y + r} font-size=${r * 1.4} text-anchor="middle" dominant-baseline="central">${seatMark(seat)}</text>
  </g>`;
}

/** A world board. With `onSpace` (your own), it is one keyboard stop (`keys`: its handler, its
 * label, its ref) with a cursor over the spaces and the held tile shown where it would go; the
 * spaces are buttons for the mouse too. `last`: the space of the seat's last placement. */
export function World({ seat, border, size, highlight = [], onSpace, grace, label, cursor = null, preview = null, keys = null, last }) {
  const placed = new Map(seat.board.map((p) => [p.space, p]));
  const frame = size * 0.18;
  const width = frame * 2 + COLS * size;
  const height = frame * 2 + ROWS * size;
  const strips = [
    [0, 0, width, frame], [width - frame, 0, frame, height], [0, height - frame, width, frame], [0, 0, frame, height],
  ];
  const at = (space) => [frame + (space % COLS) * size, frame + Math.floor(space / COLS) * size];
  const focusable = keys
    ? { tabindex: "0", role: "application", "aria-label": keys.label, "aria-describedby": keys.describedby,
        "aria-keyshortcuts": "ArrowUp ArrowDown ArrowLeft ArrowRight Enter R F L Escape", onKeyDown: keys.onKeyDown, ref: keys.ref }
    : {};
  const marked = last !== undefined && placed.has(last) ? last : null;
  return html`
    <div class=${`world${keys ? " keyed" : ""}`} data-seat=${seat.seat} ...${focusable}>
      <svg viewBox=${`0 0 ${width} ${height}`} role=${keys ? null : "img"} aria-label=${keys ? null : label} aria-hidden=${keys ? "true" : null}>
        ${strips.map(([a, b, w, h], k) => html`<rect x=${a} y=${b} width=${w} height=${h} fill=${`url(#land-${border[k]})`} />`)}
        ${Array.from({ length: ROWS * COLS }, (_, space) => {
          const [x, y] = at(space);
          const tile = placed.get(space);
          return html`<g class="space-cell" data-space=${space}>
            <rect x=${x} y=${y} width=${size} height=${size} fill="#f4f1ea" stroke="#8a8a8a" stroke-width="0.6" />
            ${tile && html`<${Face} face=${tile.face} x=${x} y=${y} size=${size} letters=${size >= 28} />`}
            ${grace && grace.space === space && html`<rect x=${x + 1.5} y=${y + 1.5} width=${size - 3} height=${size - 3} fill="none" stroke="#000" stroke-width="3" stroke-dasharray="6 3" />`}
          </g>`;
        })}
        ${marked !== null && html`<${LastMark} seat=${seat.seat} space=${marked} x=${at(marked)[0]} y=${at(marked)[1]} size=${size} />`}
        ${preview && cursor !== null && html`<g class="preview"><${Face} face=${preview} x=${at(cursor)[0]} y=${at(cursor)[1]} size=${size} /></g>`}
        ${cursor !== null && html`<rect class="cursor" data-space=${cursor} x=${at(cursor)[0] + 2.5} y=${at(cursor)[1] + 2.5}
          width=${size - 5} height=${size - 5} />`}
      </svg>
      ${onSpace && html`<div class="spaces" style=${`inset: ${(frame / height) * 100}% ${(frame / width) * 100}%`}>
        ${Array.from({ length: ROWS * COLS }, (_, space) => {
          const open = highlight.includes(space);
          return html`<button type="button" tabindex="-1" class=${`space ${open ? "open" : ""}`} disabled=${!open}
            data-space=${space} aria-label=${`${spaceName(space)}${open ? ": place the tile here" : ""}`}
            onClick=${() => onSpace(space)}></button>`;
        })}
      </div>`}
    </div>`;
}
