// A Mondo tile's face as it lies, readable without colour: each landscape has a colour whose
// luminance differs clearly from every other's (forest darkest, then water, steppe, desert
// lightest), a texture of its own and, where the face is drawn large enough, its letter; an
// active volcano is a peak with a plume, an inactive one a flat-topped cone.
import { html } from "./lib.js";

// Relative luminance 0.06, 0.20, 0.44, 0.78: neighbours at least 1.7:1 apart in greyscale.
export const LAND = { forest: "#1b4d33", water: "#3d7fc2", steppe: "#8fbf45", desert: "#f7e4a8" };
export const INITIAL = { water: "W", forest: "F", desert: "D", steppe: "S" };
export const SIDES = ["north", "east", "south", "west"];
// The four triangles of a face, N E S W, in a 0..1 square.
const TRIANGLES = [
  [[0, 0], [1, 0], [0.5, 0.5]],
  [[1, 0], [1, 1], [0.5, 0.5]],
  [[1, 1], [0, 1], [0.5, 0.5]],
  [[0, 1], [0, 0], [0.5, 0.5]],
];
const CORNERS = [[0, 0], [1, 0], [1, 1], [0, 1]]; // NW NE SE SW
const CENTRE = [[0.5, 0.28], [0.72, 0.5], [0.5, 0.72], [0.28, 0.5]]; // an animal's spot
const EDGE = [[0.5, 0.1], [0.9, 0.5], [0.5, 0.9], [0.1, 0.5]]; // a letter's spot, near the edge

/** The landscapes' textures on their colours, once per page: a face's triangles and the
 * boards' borders refer to them by id. */
export function LandPatterns() {
  return html`<svg class="land-patterns" width="0" height="0" aria-hidden="true" focusable="false">
    <defs>
      <pattern id="land-water" width="6" height="4" patternUnits="userSpaceOnUse">
        <rect width="6" height="4" fill=${LAND.water} />
        <path d="M0 2 Q1.5 0.6 3 2 T6 2" fill="none" stroke="#fff" stroke-opacity="0.55" stroke-width="0.6" />
      </pattern>
      <pattern id="land-forest" width="5" height="5" patternUnits="userSpaceOnUse">
        <rect width="5" height="5" fill=${LAND.forest} />
        <path d="M2.5 0.8 L4 3.6 L1 3.6 Z" fill="#fff" fill-opacity="0.35" />
      </pattern>
      <pattern id="land-steppe" width="4" height="4" patternUnits="userSpaceOnUse">
        <rect width="4" height="4" fill=${LAND.steppe} />
        <path d="M0 4 L4 0" stroke="#000" stroke-opacity="0.3" stroke-width="0.6" />
      </pattern>
      <pattern id="land-desert" width="4" height="4" patternUnits="userSpaceOnUse">
        <rect width="4" height="4" fill=${LAND.desert} />
        <circle cx="1" cy="1" r="0.5" fill="#000" fill-opacity="0.3" />
        <circle cx="3" cy="3" r="0.5" fill="#000" fill-opacity="0.3" />
      </pattern>
    </defs>
  </svg>`;
}

/** A volcano at (cx, cy), r its half width: active a red peak with a plume, inactive a grey
 * cone cut flat. */
function Volcano({ state, cx, cy, r }) {
  if (state === "active") {
    return html`<g class="volcano active" data-volcano="active">
      <polygon points=${`${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}`} fill="#d62828" stroke="#111" stroke-width="0.8" />
      <path d=${`M${cx} ${cy - r * 1.15} L${cx} ${cy - r * 1.7} M${cx - r * 0.35} ${cy - r * 1.1} L${cx - r * 0.7} ${cy - r * 1.55} M${cx + r * 0.35} ${cy - r * 1.1} L${cx + r * 0.7} ${cy - r * 1.55}`}
        stroke="#111" stroke-width=${Math.max(0.8, r * 0.22)} stroke-linecap="round" />
    </g>`;
  }
  return html`<polygon class="volcano inactive" data-volcano="inactive"
    points=${`${cx - r * 0.4},${cy - r * 0.3} ${cx + r * 0.4},${cy - r * 0.3} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}`}
    fill="#bdbdbd" stroke="#111" stroke-width="0.8" />`;
}

/** A face as it lies: four triangles in the landscapes of its edges (colour and texture), white
 * lines between regions, each edge's letter (`letters`), its animal (two letters) and its
 * volcano. */
export function Face({ face, x = 0, y = 0, size = 40, letters = true }) {
  const p = ([a, b]) => `${(x + a * size).toFixed(1)},${(y + b * size).toFixed(1)}`;
  const at = ([a, b]) => [x + a * size, y + b * size];
  const regionOf = SIDES.map((side) => face.regions.findIndex((r) => r.sides.includes(side)));
  const parts = [];
  face.edges.forEach((land, k) => {
    // The texture carries the landscape's colour under it (one shape a triangle: 136 tiles).
    parts.push(html`<polygon class="land" data-land=${land} points=${TRIANGLES[k].map(p).join(" ")} fill=${`url(#land-${land})`} />`);
  });
  for (let k = 0; k < 4; k++) {
    const next = (k + 1) % 4;
    if (regionOf[k] !== regionOf[next]) {
      const [a, b] = at(CORNERS[next]);
      parts.push(html`<line x1=${x + size / 2} y1=${y + size / 2} x2=${a} y2=${b} stroke="#fff" stroke-width=${size / 25} />`);
    }
  }
  if (letters) {
    face.edges.forEach((land, k) => {
      const [a, b] = at(EDGE[k]);
      parts.push(html`<text x=${a} y=${b} font-size=${size * 0.15} text-anchor="middle" dominant-baseline="central"
        class=${`land-letter on-${land}`}>${INITIAL[land]}</text>`);
    });
  }
  const animal = face.regions.find((r) => r.animal);
  if (animal) {
    const [a, b] = at(CENTRE[SIDES.indexOf(animal.sides[0])]);
    parts.push(html`<circle cx=${a} cy=${b} r=${size * 0.13} fill="#fff" stroke="#222" stroke-width="0.8" />`);
    parts.push(html`<text x=${a} y=${b} font-size=${size * 0.13} text-anchor="middle" dominant-baseline="central" class="animal">${animal.animal.slice(0, 2)}</text>`);
  }
  if (face.volcano) parts.push(html`<${Volcano} state=${face.volcano} cx=${x + size / 2} cy=${y + size / 2} r=${size * 0.12} />`);
  return parts;
}

export function faceWords(face) {
  const lands = [...new Set(face.edges)].join(" and ");
  const animal = face.regions.find((r) => r.animal);
  let text = `tile ${face.tile}, ${face.face} face: ${lands}`;
  if (animal) text += `, ${/^[aeiou]/.test(animal.animal) ? "an" : "a"} ${animal.animal}`;
  if (face.volcano) text += `, an ${face.volcano} volcano`;
  return text;
}

/** The held tile's face, turned: the API's faces are unturned; a turn moves north to east. */
export function turn(face, rotation) {
  const k = (rotation / 90) % 4;
  const edges = SIDES.map((_, i) => face.edges[(i - k + 4) % 4]);
  const regions = face.regions.map((r) => ({ ...r, sides: r.sides.map((s) => SIDES[(SIDES.indexOf(s) + k) % 4]) }));
  return { ...face, rotation, edges, regions };
}
