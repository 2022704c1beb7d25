// Every player's score over the game, from the server's timeline of the log, as an SVG chart.
// Each line has its own dash and its own marker, so it reads without colour perception.
import { html } from "./lib.js";
import { seatClass } from "./moves.js";

const W = 560;
const H = 240;
const PAD = { left: 44, right: 110, top: 12, bottom: 30 };
const DASHES = ["", "6 4", "2 3", "10 3 2 3", "1 5", "12 4"];
const MARKERS = ["circle", "square", "triangle", "diamond", "bar", "cross"];

function marker(kind, x, y) {
  if (kind === "circle") return html`<circle cx=${x} cy=${y} r="4" />`;
  if (kind === "square") return html`<rect x=${x - 4} y=${y - 4} width="8" height="8" />`;
  if (kind === "triangle") return html`<polygon points=${`${x},${y - 5} ${x + 5},${y + 4} ${x - 5},${y + 4}`} />`;
  if (kind === "bar") return html`<rect x=${x - 6} y=${y - 2.5} width="12" height="5" />`;
  if (kind === "cross") return html`<polygon points=${`${x - 2},${y - 6} ${x + 2},${y - 6} ${x + 2},${y - 2} ${x + 6},${y - 2} ${x + 6},${y + 2} ${x + 2},${y + 2} ${x + 2},${y + 6} ${x - 2},${y + 6} ${x - 2},${y + 2} ${x - 6},${y + 2} ${x - 6},${y - 2} ${x - 2},${y - 2}`} />`;
  return html`<polygon points=${`${x},${y - 5} ${x + 5},${y} ${x},${y + 5} ${x - 5},${y}`} />`;
}

/** The end labels' heights, moved apart so that no two overlap (at least 14 units apart). */
function spread(heights) {
  const order = heights.map((h, seat) => [h, seat]).sort((a, b) => a[0] - b[0]);
  const at = [];
  order.forEach(([h, seat], k) => {
    const floor = k ? at[order[k - 1][1]] + 14 : PAD.top;
    at[seat] = Math.max(h, floor);
  });
  // Pushed below the chart's foot: pull the whole stack back up.
  const over = Math.max(0, ...order.map(([, seat]) => at[seat] - (H - 4)));
  return at.map((h) => h - over);
}

export function ScoreChart({ timeline }) {
  const points = timeline.points;
  if (points.length < 2) return null;
  const last = timeline.version || 1;
  const all = points.flatMap((p) => p.scores);
  const top = Math.max(1, ...all);
  const bottom = Math.min(0, ...all); // a negative total is drawn below the zero line
  const x = (v) => PAD.left + (v / last) * (W - PAD.left - PAD.right);
  const y = (s) => H - PAD.bottom - ((s - bottom) / (top - bottom)) * (H - PAD.top - PAD.bottom);
  const ticks = bottom < 0 ? [bottom, 0, top] : [0, Math.round(top / 2), top];
  const labelAt = spread(timeline.seats.map((_, seat) => y(points[points.length - 1].scores[seat])));
  const summary = timeline.seats.map((name, seat) => `${name} ${points[points.length - 1].scores[seat]}`).join(", ");
  return html`
    <figure class="chart">
      <svg viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${`Scores over the game, by event. At the end: ${summary}.`}>
        <line class="axis" x1=${PAD.left} y1=${y(0)} x2=${W - PAD.right} y2=${y(0)} />
        <line class="axis" x1=${PAD.left} y1=${PAD.top} x2=${PAD.left} y2=${H - PAD.bottom} />
        ${ticks.map((t) => html`<text class="tick" x=${PAD.left - 6} y=${y(t)} text-anchor="end" dominant-baseline="central">${t}</text>`)}
        <text class="tick" x=${x(last)} y=${H - 8} text-anchor="end">event ${last}</text>
        ${timeline.seats.map((name, seat) => {
          const line = points.map((p) => `${x(p.version).toFixed(1)},${y(p.scores[seat]).toFixed(1)}`).join(" ");
          const end = points[points.length - 1];
          return html`<g class=${`series s${seat} ${seatClass(seat)}`}>
            <polyline points=${line} stroke-dasharray=${DASHES[seat % 6]} />
            ${marker(MARKERS[seat % 6], x(end.version), y(end.scores[seat]))}
            <text class="label" x=${x(end.version) + 8} y=${labelAt[seat]} dominant-baseline="central">${name} ${end.scores[seat]}</text>
          </g>`;
        })}
      </svg>
      <figcaption>Scores over the game (${summary}).</figcaption>
    </figure>
  `;
}
