// Bazaar's stones drawn: each colour has its own shape too, so that stones read without colour
// perception. A stone that is new on a carpet is ringed (a shape of its own, not a colour).
import { html } from "./lib.js";

const SHAPES = { red: "circle", green: "triangle", blue: "diamond", white: "hexagon", yellow: "square" };

function body(colour, c, r) {
  switch (SHAPES[colour]) {
    case "circle":
      return html`<circle cx=${c} cy=${c} r=${r} />`;
    case "triangle":
      return html`<polygon points=${`${c},${c - r} ${c + r},${c + r * 0.8} ${c - r},${c + r * 0.8}`} />`;
    case "diamond":
      return html`<polygon points=${`${c},${c - r} ${c + r},${c} ${c},${c + r} ${c - r},${c}`} />`;
    case "hexagon": {
      const points = Array.from({ length: 6 }, (_, i) => {
        const a = (Math.PI / 3) * i;
        return `${(c + r * Math.cos(a)).toFixed(1)},${(c + r * Math.sin(a)).toFixed(1)}`;
      });
      return html`<polygon points=${points.join(" ")} />`;
    }
    default:
      return html`<rect x=${c - r * 0.85} y=${c - r * 0.85} width=${r * 1.7} height=${r * 1.7} />`;
  }
}

export function Stone({ colour, size = 22, fresh = false }) {
  const c = size / 2;
  const r = fresh ? size / 2 - 4 : size / 2 - 2;
  return html`<svg class=${`stone ${colour}${fresh ? " fresh" : ""}`} width=${size} height=${size}
    viewBox=${`0 0 ${size} ${size}`} aria-hidden="true" data-colour=${colour}>
    ${fresh && html`<circle class="ring" cx=${c} cy=${c} r=${size / 2 - 0.8} />`}${body(colour, c, r)}</svg>`;
}

/** A row of stones; the last `fresh[colour]` of each colour are ringed. */
export function Stones({ colours, size, fresh = null }) {
  const seen = {};
  const total = {};
  for (const c of colours) total[c] = (total[c] || 0) + 1;
  return html`<span class="stones">${colours.map((c) => {
    seen[c] = (seen[c] || 0) + 1;
    const ringed = !!fresh && seen[c] > total[c] - (fresh[c] || 0);
    return html`<${Stone} colour=${c} size=${size} fresh=${ringed} />`;
  })}</span>`;
}
