// Each seat's last placement, marked on the board where it happened: an outline in the seat's
// colour with the seat's number (never the colour alone), until that seat lays its next tile.
// The newest placement also shows its points for a moment; an AI's move, however fast it came,
// stays outlined. Read from the log the board is given: in a replay, the log up to the step.
// On a phone, a placement newer than the page comes into view as it is made (crazymino-scroll.js).
import { html, useEffect, useRef } from "./lib.js";
import { lastBySeat, seatClass, seatMark } from "./moves.js";
import { S } from "./crazymino-tiles.js";
import { showLaid } from "./crazymino-scroll.js";

export const PLACED = "tile_placed";

/** Each seat's last placement: a Map seat → its log entry; and the newest of them. */
export function lastPlacements(log) {
  const last = lastBySeat(log, [PLACED]);
  let newest = null;
  for (const entry of last.values()) if (!newest || entry.version > newest.version) newest = entry;
  return { last, newest };
}

/** The outlines (and the newest one's points) over the tiles, in the board's SVG units. */
export function LastPlacements({ last, newest }) {
  const marks = useRef(null);
  const seen = useRef(newest ? newest.version : null); // the placements the page opened with stay put
  useEffect(() => {
    if (!newest || newest.version === seen.current) return;
    seen.current = newest.version;
    showLaid(marks.current, newest.event.row, newest.event.col);
  }, [newest && newest.version]);
  return html`<g class="last-placements" ref=${marks}>${[...last].map(([seat, entry]) => {
    const { row, col, score } = entry.event;
    const x = col * S;
    const y = row * S;
    const isNewest = newest && entry.version === newest.version;
    return html`
      <g key=${`${seat}:${entry.version}`} class=${`last-placed ${seatClass(seat)}${isNewest ? " newest" : ""}`}
        data-seat=${seat} data-row=${row} data-col=${col}>
        <rect class="outline" x=${x + 1.5} y=${y + 1.5} width=${S - 3} height=${S - 3} rx="4" />
        <circle class="seat-dot" cx=${x + S / 2} cy=${y + 3} r="7.5" />
        <text class="seat-number" x=${x + S / 2} y=${y + 3.5} text-anchor="middle" dominant-baseline="central">${seatMark(seat)}</text>
        ${isNewest && html`<text class="points-pop" x=${x + S / 2} y=${row === 0 ? y + S + 9 : y - 9}
          text-anchor="middle" dominant-baseline="central">+${score.total}</text>`}
      </g>`;
  })}</g>`;
}
