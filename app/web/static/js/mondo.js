// Mondo's table: the shared display, your world board large and the others small, the tile in
// your hand (turn it with the wheel or R, flip it with a right click or F), the round's clock
// from the server's deadline, the bonus chips, the score helper and the round-end breakdown.
// Where a tile may go, what a board would score: all from the API.
import { html, useState, useEffect } from "./lib.js";

const ROWS = 4;
const COLS = 6;
const LAND = { water: "#3f88c5", forest: "#2d6a4f", desert: "#e9c46a", steppe: "#a7c957" };
const INITIAL = { water: "W", forest: "F", desert: "D", steppe: "S" };
const SIDES = ["north", "east", "south", "west"];
// The four triangles of a face, N E S W, in a 0..1 square.
const TRIANGLES = [
  [[0, 0], [1, 0], [0.5, 0.5]],
  [[1, 0], [1, 1], [0.5, 0.5]],
  [[1, 1], [0, 1], [0.5, 0.5]],
  [[0, 1], [0, 0], [0.5, 0.5]],
];
const CORNERS = [[0, 0], [1, 0], [1, 1], [0, 1]]; // NW NE SE SW
const CENTRE = [[0.5, 0.22], [0.78, 0.5], [0.5, 0.78], [0.22, 0.5]]; // a spot in each triangle

/** A face as it lies: four triangles in the landscapes of its edges, white lines between
 * regions, its animal (two letters) and its volcano (a triangle, red when active). */
export function Face({ face, x = 0, y = 0, size = 40, letters = false }) {
  const p = ([a, b]) => `${(x + a * size).toFixed(1)},${(y + b * size).toFixed(1)}`;
  const regionOf = SIDES.map((side) => face.regions.findIndex((r) => r.sides.includes(side)));
  const parts = [];
  face.edges.forEach((land, k) => {
    parts.push(html`<polygon points=${TRIANGLES[k].map(p).join(" ")} fill=${LAND[land]} />`);
  });
  for (let k = 0; k < 4; k++) {
    const next = (k + 1) % 4;
    if (regionOf[k] !== regionOf[next]) {
      const [a, b] = p(CORNERS[next]).split(",");
      parts.push(html`<line x1=${x + size / 2} y1=${y + size / 2} x2=${a} y2=${b} stroke="#fff" stroke-width=${size / 25} />`);
    }
  }
  if (letters) {
    face.edges.forEach((land, k) => {
      const [a, b] = p(CENTRE[k]).split(",");
      parts.push(html`<text x=${a} y=${b} font-size=${size * 0.12} text-anchor="middle" dominant-baseline="central" class="land-letter">${INITIAL[land]}</text>`);
    });
  }
  const animal = face.regions.find((r) => r.animal);
  if (animal) {
    const k = SIDES.indexOf(animal.sides[0]);
    const [a, b] = p(CENTRE[k]).split(",");
    parts.push(html`<circle cx=${a} cy=${b} r=${size * 0.13} fill="#fff" stroke="#222" stroke-width="0.8" />`);
    parts.push(html`<text x=${a} y=${b} font-size=${size * 0.13} text-anchor="middle" dominant-baseline="central" class="animal">${animal.animal.slice(0, 2)}</text>`);
  }
  if (face.volcano) {
    const c = [x + size / 2, y + size / 2];
    const r = size * 0.12;
    parts.push(html`<polygon points=${`${c[0]},${c[1] - r} ${c[0] + r},${c[1] + r * 0.8} ${c[0] - r},${c[1] + r * 0.8}`}
      fill=${face.volcano === "active" ? "#d62828" : "#9e9e9e"} stroke="#222" stroke-width="0.8" />`);
  }
  return parts;
}

export function faceWords(face) {
  const lands = [...new Set(face.edges)].join(" and ");
  const animal = face.regions.find((r) => r.animal);
  let text = `tile ${face.tile}, ${face.face} face: ${lands}`;
  if (animal) text += `, a ${animal.animal}`;
  if (face.volcano) text += `, an ${face.volcano} volcano`;
  return text;
}

/** The held tile's face, turned: the API's faces are unturned; a turn moves north to east. */
function turn(face, rotation) {
  const k = (rotation / 90) % 4;
  const edges = SIDES.map((_, i) => face.edges[(i - k + 4) % 4]);
  const regions = face.regions.map((r) => ({ ...r, sides: r.sides.map((s) => SIDES[(SIDES.indexOf(s) + k) % 4]) }));
  return { ...face, rotation, edges, regions };
}

function useNow(skew) {
  const [now, setNow] = useState(Date.now() + skew);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() + skew), 250);
    return () => clearInterval(timer);
  }, [skew]);
  return now;
}

function clock(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function Board({ seat, border, size, highlight = [], onSpace, grace, label }) {
  const placed = new Map(seat.board.map((p) => [p.space, p]));
  const frame = size * 0.18;
  const width = frame * 2 + COLS * size;
  const height = frame * 2 + ROWS * size;
  const strips = [
    [0, 0, width, frame], [width - frame, 0, frame, height], [0, height - frame, width, frame], [0, 0, frame, height],
  ];
  return html`
    <div class="world" style=${`max-width: ${width}px`}>
      <svg viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${label}>
        ${strips.map(([a, b, w, h], k) => html`<rect x=${a} y=${b} width=${w} height=${h} fill=${LAND[border[k]]} />`)}
        ${Array.from({ length: ROWS * COLS }, (_, space) => {
          const x = frame + (space % COLS) * size;
          const y = frame + Math.floor(space / COLS) * size;
          const tile = placed.get(space);
          return html`<g>
            <rect x=${x} y=${y} width=${size} height=${size} fill="#f4f1ea" stroke="#8a8a8a" stroke-width="0.6" />
            ${tile && html`<${Face} face=${tile.face} x=${x} y=${y} size=${size} letters=${size > 40} />`}
            ${grace && grace.space === space && html`<rect x=${x + 1.5} y=${y + 1.5} width=${size - 3} height=${size - 3} fill="none" stroke="#000" stroke-width="3" stroke-dasharray="6 3" />`}
          </g>`;
        })}
      </svg>
      ${onSpace && html`<div class="spaces" style=${`inset: ${(frame / height) * 100}% ${(frame / width) * 100}%`}>
        ${Array.from({ length: ROWS * COLS }, (_, space) => {
          const open = highlight.includes(space);
          return html`<button type="button" class=${`space ${open ? "open" : ""}`} disabled=${!open}
            data-space=${space} aria-label=${`Space ${space} (row ${Math.floor(space / COLS)}, column ${space % COLS})${open ? ": place the tile here" : ""}`}
            onClick=${() => onSpace(space)}></button>`;
        })}
      </div>`}
    </div>`;
}

function ScoreLines({ score }) {
  const lines = [
    ["Animals", score.animals], ["Closed landscapes", score.landscapes], ["Bonus chip", score.bonus],
    [`Volcanoes (${score.volcano_count})`, score.volcanoes], ["Empty spaces", score.empty_spaces],
    ["Closure errors", score.closure_errors],
  ];
  if (score.special) lines.push([`Special scoring (${score.special_count})`, score.special]);
  score.tasks.forEach((t) => lines.push([`Task ${t.task} (${t.fulfilled ? "fulfilled" : "not fulfilled"})`, t.points]));
  return html`<dl class="score-lines">${lines.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
    <div class="total"><dt>Total</dt><dd>${score.total}</dd></div></dl>`;
}

export function MondoBoard({ view, send, busy, readOnly = false }) {
  const state = view.state;
  const me = view.seat;
  const legal = readOnly ? [] : view.legal;
  const mine = me !== null ? state.seats[me] : null;
  const [skew] = useState(() => view.now - Date.now());
  const now = useNow(skew);
  const held = mine && mine.held;
  const [face, setFace] = useState("plain");
  const [rotation, setRotation] = useState(0);
  useEffect(() => {
    if (held) {
      setFace(held.shown);
      setRotation(0);
    }
  }, [held && held.tile]);
  const find = (predicate) => legal.find(predicate);
  const act = (command) => command && !busy && send(command);
  const turnHeld = () => setRotation((rotation + 90) % 360);
  const flipHeld = () => setFace(face === "plain" ? "variable" : "plain");
  const shown = held ? turn(face === "plain" ? held.plain : held.variable, rotation) : null;
  const place = (space) => act({ type: "place_tile", tile: held.tile, space, face, rotation });
  const putBack = held && find((c) => c.type === "return_tile");
  const chip = find((c) => c.type === "take_bonus");
  const grace = mine && mine.grace && mine.grace.until > now ? mine.grace : null;
  const turnPlaced = grace && legal.filter((c) => c.type === "turn_placed");
  const lift = grace && find((c) => c.type === "lift_placed");
  const left = state.running ? state.deadline - now : state.next_round_at ? state.next_round_at - now : 0;

  function onKey(event) {
    if (!held || event.target.tagName === "INPUT") return;
    if (event.key === "r" || event.key === "R") turnHeld();
    else if (event.key === "f" || event.key === "F") flipHeld();
  }

  return html`
    <section class="mondo" aria-label="Mondo table" onKeyDown=${onKey}>
      <div class="round-bar" role="status">
        <strong>Round ${state.round} of ${state.rounds}</strong>
        ${state.over ? html`<span>The game is over.</span>`
          : state.running ? html`<span class="countdown">Time left ${clock(left)}</span>`
          : html`<span class="countdown">Next round in ${clock(left)}</span>`}
        <span>Bonus chips left: ${state.chips.length ? state.chips.join(", ") : "none"}</span>
        ${state.special && html`<span>Special scoring: ${state.special.replaceAll("_", " ")}</span>`}
      </div>
      <div class="mondo-grid">
        <div class="mine">
          ${mine && html`
            <h2>Your world</h2>
            <${Board} seat=${mine} border=${state.border} size=${64} highlight=${held && !readOnly ? state.spaces : []}
              onSpace=${readOnly ? null : place} grace=${grace} label=${`Your board: ${mine.board.length} tiles`} />
            ${grace && html`<p class="grace">Just placed: you may still
              ${turnPlaced.map((c) => html` <button type="button" disabled=${busy} onClick=${() => act(c)}>Turn it to ${c.rotation}°</button>`)}
              ${lift && html` <button type="button" disabled=${busy} onClick=${() => act(lift)}>Lift it</button>`}
              (${clock(grace.until - now)})</p>`}
            <section class="held" aria-labelledby="held-title">
              <h3 id="held-title">In your hand</h3>
              ${held ? html`
                <div class="held-tile" tabindex="0" role="group" aria-label=${`${faceWords(shown)}, turned ${rotation}°. R turns it, F flips it.`}
                  onWheel=${(e) => { e.preventDefault(); turnHeld(); }}
                  onContextMenu=${(e) => { e.preventDefault(); flipHeld(); }}>
                  <svg viewBox="0 0 96 96" aria-hidden="true"><${Face} face=${shown} size=${96} letters=${true} /></svg>
                </div>
                <div class="row">
                  <button type="button" onClick=${turnHeld}>Turn (R)</button>
                  <button type="button" onClick=${flipHeld}>Flip (F)</button>
                  <button type="button" disabled=${!putBack || busy} onClick=${() => act(putBack)}>Put it back</button>
                </div>
                <p class="hint">${state.spaces.length ? "Choose a highlighted space on your board." : "No space is open."}</p>`
              : html`<p class="hint">${mine.chip !== null ? `You took the bonus chip ${mine.chip}: your round is over.` : "Take a tile from the display."}</p>`}
              ${me !== null && !readOnly && html`<button type="button" class="primary" disabled=${!chip || busy} onClick=${() => act(chip)}>
                Take the bonus chip${state.chips.length ? ` (${state.chips[0]})` : ""}</button>`}
            </section>
            <section class="helper" aria-labelledby="helper-title">
              <h3 id="helper-title">Your score if the round ended now</h3>
              <${ScoreLines} score=${mine.score_now} />
            </section>`}
          ${state.tasks.length > 0 && html`
            <section class="tasks" aria-labelledby="tasks-title">
              <h3 id="tasks-title">Tasks</h3>
              <ul>${state.tasks.map((t) => {
                const take = find((c) => c.type === "take_task" && c.task === t.task);
                return html`<li>${t.task.replaceAll("_", " ")} (${t.points})
                  ${t.taken_by !== null ? html` — ${view.seats[t.taken_by].name}` : take && html` <button type="button" disabled=${busy} onClick=${() => act(take)}>Take</button>`}</li>`;
              })}</ul>
            </section>`}
        </div>
        <section class="display" aria-labelledby="display-title">
          <h2 id="display-title">The display (${state.display.length} tiles)</h2>
          <ul>
            ${state.display.map((d) => {
              const take = find((c) => c.type === "take_tile" && c.tile === d.shown.tile);
              const holder = d.holder !== null && d.holder !== undefined ? view.seats[d.holder].name : null;
              return html`<li>
                <button type="button" class=${`display-tile ${holder ? "held-by" : ""}`} disabled=${!take || busy}
                  data-tile=${d.shown.tile} onClick=${() => act(take)}
                  aria-label=${`${faceWords(d.shown)}${holder ? `, held by ${holder}` : ""}`}>
                  <svg viewBox="0 0 40 40" aria-hidden="true"><${Face} face=${d.shown} /></svg>
                  ${holder && html`<span class="holder">${holder}</span>`}
                </button></li>`;
            })}
          </ul>
        </section>
      </div>
      <section class="others" aria-label="The other boards">
        ${state.seats.filter((s) => s.seat !== me).map((s) => html`
          <div class="other">
            <h3>${s.name}${s.chip !== null ? ` (left with ${s.chip})` : ""}: ${s.score_now.total} now</h3>
            <${Board} seat=${s} border=${state.border} size=${28} label=${`${s.name}'s board: ${s.board.length} tiles`} />
          </div>`)}
      </section>
      ${state.last_round && html`
        <section class="breakdown" aria-labelledby="breakdown-title">
          <h2 id="breakdown-title">Round ${state.running ? state.round - 1 : state.round} scores</h2>
          <div class="breakdown-grid">${state.last_round.map((score, seat) => html`
            <div><h3>${view.seats[seat].name}</h3><${ScoreLines} score=${score} /></div>`)}</div>
        </section>`}
    </section>
  `;
}

export const MONDO = {
  title: "Mondo",
  Board: MondoBoard,
  seatNote: (view, seat) => {
    const s = view.state.seats[seat];
    return `${s.board.length} tiles laid${s.chip !== null ? `, left with chip ${s.chip}` : ""}`;
  },
  scoreLine: (view, seat) => `${view.state.seats[seat].total} over ${view.state.rounds} rounds`,
};
