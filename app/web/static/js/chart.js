// Every player's score over the game, from the server's timeline of the log, as an SVG chart.
// Each line has its own dash and its own marker, so it reads without colour perception.
import { html } from "./lib.js";

const W = 560;
const H = 240;
const PAD = { left: 44, right: 110, top: 12, bottom: 30 };
const DASHES = ["", "6 4", "2 3", "10 3 2 3"];
const MARKERS = ["circle", "square", "triangle", "diamond"];

function marker(kind, x, y) {
  if (kind === "circle") return html`<circle cx=${x} cy=${y} r="4" />`;
  if (kind === "square") return html`<rect x=${x - 4} y=${y - 4} width="8" height="8" />`;
  if (kind === "triangle") return html`<polygon points=${`${x},${y - 5} ${x + 5},${y + 4} ${x - 5},${y + 4}`} />`;
  return html`<polygon points=${`${x},${y - 5} ${x + 5},${y} ${x},${y + 5} ${x - 5},${y}`} />`;
}

export function ScoreChart({ timeline }) {
  const points = timeline.points;
  if (points.length < 2) return null;
  const last = timeline.version || 1;
  const top = Math.max(1, ...points.flatMap((p) => p.scores));
  const x = (v) => PAD.left + (v / last) * (W - PAD.left - PAD.right);
  const y = (s) => H - PAD.bottom - (s / top) * (H - PAD.top - PAD.bottom);
  const ticks = [0, Math.round(top / 2), top];
  const summary = timeline.seats.map((name, seat) => `${name} ${points[points.length - 1].scores[seat]}`).join(", ");
  return html`
    <figure class="chart">
      <svg viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${`Scores over the game, by event. At the end: ${summary}.`}>
        <line class="axis" x1=${PAD.left} y1=${H - PAD.bottom} x2=${W - PAD.right} y2=${H - PAD.bottom} />
        <line class="axis" x1=${PAD.left} y1=${PAD.top} x2=${PAD.left} y2=${H - PAD.bottom} />
        ${ticks.map((t) => html`<text class="tick" x=${PAD.left - 6} y=${y(t)} text-anchor="end" dominant-baseline="central">${t}</text>`)}
        <text class="tick" x=${x(last)} y=${H - 8} text-anchor="end">event ${last}</text>
        ${timeline.seats.map((name, seat) => {
          const line = points.map((p) => `${x(p.version).toFixed(1)},${y(p.scores[seat]).toFixed(1)}`).join(" ");
          const end = points[points.length - 1];
          return html`<g class=${`series s${seat}`}>
            <polyline points=${line} stroke-dasharray=${DASHES[seat % 4]} />
            ${marker(MARKERS[seat % 4], x(end.version), y(end.scores[seat]))}
            <text class="label" x=${x(end.version) + 8} y=${y(end.scores[seat])} dominant-baseline="central">${name}</text>
          </g>`;
        })}
      </svg>
      <figcaption>Scores over the game (${summary}).</figcaption>
    </figure>
  `;
}
