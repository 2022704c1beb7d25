// Crazymino's pieces as drawn: the board's cells, a tile's face, and the names of the cells
// (columns A–N, rows 1–14), the same names as the game log's words (domain/crazymino/words.py).
import { html } from "./lib.js";

export const SIZE = 14;
export const S = 40; // one cell, in SVG units
export const COLOURS = { P: "pink", G: "green", Y: "yellow", B: "blue" };
// Each colour has its own shape too, so that the board reads without colour perception.
export const SHAPE = { pink: "circle", green: "triangle", yellow: "square", blue: "diamond" };

/** A colour's shape, centred on (x, y), of radius r. */
export function Shape({ colour, x, y, r, className = "" }) {
  const cls = `shape ${colour} ${className}`;
  switch (SHAPE[colour]) {
    case "circle":
      return html`<circle class=${cls} cx=${x} cy=${y} r=${r} />`;
    case "triangle":
      return html`<polygon class=${cls} points=${`${x},${y - r} ${x + r},${y + r * 0.8} ${x - r},${y + r * 0.8}`} />`;
    case "square":
      return html`<rect class=${cls} x=${x - r * 0.85} y=${y - r * 0.85} width=${r * 1.7} height=${r * 1.7} />`;
    default:
      return html`<polygon class=${cls} points=${`${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}`} />`;
  }
}

/** The corner numbers (NW, NE, SE, SW) of a tile turned clockwise by `rotation` degrees. */
export function turned(corners, rotation) {
  const k = (rotation / 90) % 4;
  return [0, 1, 2, 3].map((i) => corners[(i - k + 4) % 4]);
}

/** A tile at (x, y), size `size`: its colour, its shape, its four numbers. */
export function TileFace({ colour, corners, x = 0, y = 0, size = S, className = "" }) {
  const pad = size * 0.2;
  const spots = [
    [x + pad, y + pad],
    [x + size - pad, y + pad],
    [x + size - pad, y + size - pad],
    [x + pad, y + size - pad],
  ];
  return html`
    <g class=${`tile ${colour} ${className}`}>
      <rect class="tile-body" x=${x + 1} y=${y + 1} width=${size - 2} height=${size - 2} rx="3" />
      <${Shape} colour=${colour} x=${x + size / 2} y=${y + size / 2} r=${size * 0.16} className="tile-shape" />
      ${corners.map((n, k) => html`<text class="number" x=${spots[k][0]} y=${spots[k][1]}
        font-size=${size * 0.3} text-anchor="middle" dominant-baseline="central">${n}</text>`)}
    </g>`;
}

export function tileWords(face, rotation = 0) {
  return `${face.colour} tile ${turned(face.corners, rotation).join("-")}`;
}

/** The board's column letters, left to right; rows are numbered 1–14 from the top. */
export const COLUMNS = "ABCDEFGHIJKLMN";

/** A cell's name, as the log says it: (row 6, col 5) is "F7". */
export function cellName(row, col) {
  return `${COLUMNS[col]}${row + 1}`;
}

/** The board map: cell colours with their shapes, multipliers, start stars. */
export function BoardMap({ state }) {
  const multipliers = new Map(state.multipliers.map((m) => [`${m.row},${m.col}`, m.times]));
  const starts = new Set((state.start_cells || []).map(([r, c]) => `${r},${c}`));
  const cells = [];
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      const colour = COLOURS[state.board[row][col]];
      const x = col * S;
      const y = row * S;
      const times = multipliers.get(`${row},${col}`);
      cells.push(html`
        <g class=${`cell ${colour}`}>
          <rect x=${x} y=${y} width=${S} height=${S} />
          <${Shape} colour=${colour} x=${x + 7} y=${y + 7} r=${4} className="cell-shape" />
          ${times && html`<text class="times" x=${x + S / 2} y=${y + S / 2 + 2} text-anchor="middle" dominant-baseline="central">×${times}</text>`}
          ${starts.has(`${row},${col}`) && html`<polygon class="star" points=${star(x + S / 2, y + S / 2, 11)} />`}
        </g>`);
    }
  }
  return cells;
}

function star(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? r * 0.45 : r;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

