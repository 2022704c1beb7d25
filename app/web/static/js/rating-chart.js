// A player's rating at one title after each rated game, oldest first, as an SVG chart: one
// line with a marker at every game, its first and last values written beside it, so that it
// reads without colour; and the same points as a list, its text alternative.
import { html } from "./lib.js";
import { when } from "./rating.js";

const W = 400;
const H = 180;
const PAD = { left: 44, right: 44, top: 12, bottom: 28 };

/** "12 May 2026" from a server time in ms. */
const day = (ms) => new Date(ms).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });

/** Round ticks around the ratings: the lowest and highest, widened to a step of 50. */
function range(ratings) {
  const low = Math.floor((Math.min(...ratings) - 10) / 50) * 50;
  const high = Math.ceil((Math.max(...ratings) + 10) / 50) * 50;
  return [low, high];
}

export function RatingChart({ title, chart }) {
  if (!chart.length) return html`<p class="quiet">No rated game yet: the chart starts with the first.</p>`;
  const ratings = chart.map((p) => p.rating);
  const [low, high] = range(ratings);
  const span = Math.max(1, chart.length - 1);
  const x = (k) => (chart.length === 1 ? (PAD.left + W - PAD.right) / 2 : PAD.left + (k / span) * (W - PAD.left - PAD.right));
  const y = (r) => H - PAD.bottom - ((r - low) / (high - low)) * (H - PAD.top - PAD.bottom);
  const first = chart[0];
  const last = chart[chart.length - 1];
  const summary = chart.length === 1
    ? `${last.rating} after its first rated game`
    : `from ${first.rating} to ${last.rating} over ${chart.length} rated games (lowest ${Math.min(...ratings)}, highest ${Math.max(...ratings)})`;
  return html`
    <figure class="chart rating-chart">
      <svg viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${`Chart of the ${title} rating after each rated game`}>
        <line class="axis" x1=${PAD.left} y1=${H - PAD.bottom} x2=${W - PAD.right} y2=${H - PAD.bottom} />
        <line class="axis" x1=${PAD.left} y1=${PAD.top} x2=${PAD.left} y2=${H - PAD.bottom} />
        ${[low, high].map((t) => html`<text class="tick" x=${PAD.left - 6} y=${y(t)} text-anchor="end" dominant-baseline="central">${t}</text>`)}
        <text class="tick" x=${PAD.left} y=${H - 8} text-anchor="start">${day(first.at)}</text>
        ${chart.length > 1 && html`<text class="tick" x=${W - PAD.right} y=${H - 8} text-anchor="end">${day(last.at)}</text>`}
        <polyline points=${chart.map((p, k) => `${x(k).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ")} />
        ${chart.map((p, k) => html`<circle class="point" cx=${x(k)} cy=${y(p.rating)} r="4" />`)}
        <text class="label" x=${x(chart.length - 1) + 8} y=${y(last.rating)} dominant-baseline="central">${last.rating}</text>
      </svg>
      <figcaption>${title} rating after each rated game: ${summary}.</figcaption>
      <details>
        <summary>The rating after each rated game</summary>
        <ol class="rating-points">
          ${chart.map((p) => html`<li key=${p.game_id}><a href=${`/replay/${p.game_id}`}>${when(p.at)}</a>: ${p.rating}</li>`)}
        </ol>
      </details>
    </figure>
  `;
}
