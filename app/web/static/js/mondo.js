// Mondo's table: the shared display, your world board large and the others small, the tile in
// your hand (turn it with the wheel or R, flip it with a right click or F), the round's clock
// from the server's deadline, the bonus chips, the score helper and the round-end breakdown.
// Where a tile may go, what a board would score: all from the API.
import { html, useState, useEffect, useRef, useLayoutEffect } from "./lib.js";

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

/** "1 tile", "3 tiles". */
function tileCount(n) {
  return `${n} ${n === 1 ? "tile" : "tiles"}`;
}

/** A space's name, as the log says it: row and column from 0, north-west first. */
function spaceName(space) {
  return `Space ${space} (row ${Math.floor(space / COLS)}, column ${space % COLS})`;
}

/** A world board. With `onSpace` (your own), it is one keyboard stop (`keys`: its handler, its
 * label, its ref) with a cursor over the spaces and the held tile shown where it would go; the
 * spaces are buttons for the mouse too. */
function Board({ seat, border, size, highlight = [], onSpace, grace, label, cursor = null, preview = null, keys = null }) {
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
  return html`
    <div class=${`world${keys ? " keyed" : ""}`} style=${`max-width: ${width}px`} ...${focusable}>
      <svg viewBox=${`0 0 ${width} ${height}`} role=${keys ? null : "img"} aria-label=${keys ? null : label} aria-hidden=${keys ? "true" : null}>
        ${strips.map(([a, b, w, h], k) => html`<rect x=${a} y=${b} width=${w} height=${h} fill=${LAND[border[k]]} />`)}
        ${Array.from({ length: ROWS * COLS }, (_, space) => {
          const [x, y] = at(space);
          const tile = placed.get(space);
          return html`<g>
            <rect x=${x} y=${y} width=${size} height=${size} fill="#f4f1ea" stroke="#8a8a8a" stroke-width="0.6" />
            ${tile && html`<${Face} face=${tile.face} x=${x} y=${y} size=${size} letters=${size > 40} />`}
            ${grace && grace.space === space && html`<rect x=${x + 1.5} y=${y + 1.5} width=${size - 3} height=${size - 3} fill="none" stroke="#000" stroke-width="3" stroke-dasharray="6 3" />`}
          </g>`;
        })}
        ${preview && cursor !== null && html`<g class="preview"><${Face} face=${preview} x=${at(cursor)[0]} y=${at(cursor)[1]} size=${size} letters=${size > 40} /></g>`}
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

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** The space of `spaces` nearest to `from` on the grid (the cursor's jump when a tile is taken). */
function nearest(from, spaces) {
  const d = (s) => Math.abs(Math.floor(s / COLS) - Math.floor(from / COLS)) + Math.abs((s % COLS) - (from % COLS));
  return spaces.reduce((best, s) => (d(s) < d(best) ? s : best), spaces[0]);
}

/** How many display tiles a row of the display holds, as the page lays them out. */
function rowLength(list) {
  const items = list ? [...list.children] : [];
  if (!items.length) return 1;
  const top = items[0].offsetTop;
  const n = items.findIndex((li) => li.offsetTop !== top);
  return n < 0 ? items.length : n;
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
  const [cursor, setCursor] = useState(0); // the board's keyboard cursor: a space
  const [current, setCurrent] = useState(null); // the display tile the keyboard is on
  const [said, setSaid] = useState(""); // what the last key could not do
  const section = useRef(null);
  const board = useRef(null);
  const shelf = useRef(null);
  // Where the keyboard's focus belongs ("board", "display", "other": a control of the table),
  // null once the person uses the mouse or goes elsewhere; whether the last input was a key.
  const want = useRef(null);
  const keyed = useRef(false);
  const lastIndex = useRef(0);
  useEffect(() => {
    if (held) {
      setFace(held.shown);
      setRotation(0);
      if (state.spaces.length && !state.spaces.includes(cursor)) setCursor(nearest(cursor, state.spaces));
    }
  }, [held && held.tile]);

  // The display is one stop for Tab: arrows move over it (a roving tabindex).
  const tiles = state.display;
  let index = tiles.findIndex((d) => d.shown.tile === current);
  if (index < 0) index = Math.min(lastIndex.current, tiles.length - 1); // it left: its neighbour
  index = Math.max(0, index);
  lastIndex.current = index;
  const rover = tiles.length ? tiles[index].shown.tile : null;

  function focusOn(where) {
    const target = where === "board" && board.current ? board.current
      : shelf.current && shelf.current.querySelector('button[tabindex="0"]');
    if (target) target.focus();
  }
  function moveFocus(where) {
    want.current = where;
    focusOn(where);
  }
  useEffect(() => {
    const key = () => { keyed.current = true; };
    const pointer = () => { keyed.current = false; want.current = null; };
    const into = (event) => {
      const root = section.current;
      if (!root || !root.contains(event.target)) want.current = null;
      else if (event.target === board.current) want.current = "board";
      else if (shelf.current && shelf.current.contains(event.target)) want.current = "display";
      else want.current = "other";
    };
    document.addEventListener("keydown", key, true);
    document.addEventListener("pointerdown", pointer, true);
    document.addEventListener("focusin", into);
    return () => {
      document.removeEventListener("keydown", key, true);
      document.removeEventListener("pointerdown", pointer, true);
      document.removeEventListener("focusin", into);
    };
  }, []);
  // Every render (another seat's move, the clock's tick): a keyboard player's focus that fell
  // to the page (its control gone) goes back where it belongs, never to <body>.
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (!want.current || !keyed.current || (active && active !== document.body && active.isConnected)) return;
    focusOn(want.current === "other" ? (held && !readOnly ? "board" : "display") : want.current);
  });

  const find = (predicate) => legal.find(predicate);
  const act = (command) => command && !busy && send(command);
  const turnHeld = () => setRotation((rotation + 90) % 360);
  const flipHeld = () => setFace(face === "plain" ? "variable" : "plain");
  const shown = held ? turn(face === "plain" ? held.plain : held.variable, rotation) : null;
  const putBack = held && find((c) => c.type === "return_tile");
  const chip = find((c) => c.type === "take_bonus");
  const grace = mine && mine.grace && mine.grace.until > now ? mine.grace : null;
  const turnPlaced = grace ? legal.filter((c) => c.type === "turn_placed") : [];
  const lift = grace && find((c) => c.type === "lift_placed");
  const justPlaced = grace && mine.board.find((p) => p.space === grace.space);
  const turnNext = justPlaced && (turnPlaced.find((c) => c.rotation === (justPlaced.face.rotation + 90) % 360) || turnPlaced[0]);
  const left = state.running ? state.deadline - now : state.next_round_at ? state.next_round_at - now : 0;

  async function take(command) {
    if (!command || busy) return;
    setSaid("");
    if ((await send(command)) && keyed.current) moveFocus("board");
  }
  async function place(space) {
    const command = held && find((c) => c.type === "place_tile" && c.tile === held.tile && c.space === space
      && c.face === face && c.rotation === rotation);
    if (!command) {
      setSaid(`${spaceName(space)} is not open for your tile: choose a highlighted space.`);
      return;
    }
    if (busy) return;
    setSaid("");
    if ((await send(command)) && keyed.current) moveFocus("display");
  }
  async function giveBack() {
    if (putBack && !busy && (await send(putBack)) && keyed.current) moveFocus("display");
  }
  async function liftIt() {
    if (lift && !busy && (await send(lift)) && keyed.current) moveFocus("board");
  }

  function onKey(event) {
    if (event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "r") {
      if (held) turnHeld();
      else if (turnNext) act(turnNext);
    } else if (key === "f" && held) flipHeld();
    else if (key === "l" && lift) liftIt();
  }
  function onBoardKey(event) {
    const move = MOVES[event.key];
    if (move) {
      event.preventDefault();
      const row = Math.min(ROWS - 1, Math.max(0, Math.floor(cursor / COLS) + move[0]));
      const col = Math.min(COLS - 1, Math.max(0, (cursor % COLS) + move[1]));
      setCursor(row * COLS + col);
      setSaid("");
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (held) place(cursor);
      else setSaid("You hold no tile: take one from the display.");
    } else if (event.key === "Escape" && held) {
      event.preventDefault();
      giveBack();
    }
  }
  function onDisplayKey(event) {
    const steps = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: rowLength(shelf.current), ArrowUp: -rowLength(shelf.current) };
    let to = event.key === "Home" ? 0 : event.key === "End" ? tiles.length - 1 : steps[event.key] !== undefined ? index + steps[event.key] : null;
    if (to === null || !tiles.length) return;
    event.preventDefault();
    to = Math.min(tiles.length - 1, Math.max(0, to));
    lastIndex.current = to;
    setCurrent(tiles[to].shown.tile);
    const button = shelf.current.querySelectorAll("button.display-tile")[to];
    if (button) button.focus();
  }

  const onCursor = mine && mine.board.find((p) => p.space === cursor);
  const open = held && state.spaces.includes(cursor);
  const where = onCursor ? `${faceWords(onCursor.face)}${grace && grace.space === cursor ? ", just placed" : ""}`
    : !held ? "empty" : open ? `open: Enter places ${faceWords(shown)}, turned ${rotation}°` : "not open for your tile";
  const status = said || `${spaceName(cursor)}: ${where}.`;
  const playing = !readOnly && mine;

  return html`
    <section class="mondo" aria-label="Mondo table" onKeyDown=${onKey} ref=${section}>
      <div class="round-bar" role="status">
        <strong>Round ${state.round} of ${state.rounds}</strong>
        ${state.over ? html`<span>The game is over.</span>`
          : state.running ? html`<span class="countdown">Time left ${clock(left)}</span>`
          : html`<span class="countdown">Next round in ${clock(left)}</span>`}
        <span>Bonus chips left: ${state.chips.length ? state.chips.join(", ") : "none"}</span>
        ${state.special && html`<span>Special scoring: ${state.special.replaceAll("_", " ")}</span>`}
      </div>
      ${playing && html`<p class="keys" id="mondo-keys">Keys: in the display, arrows choose a tile and Enter takes it;
        on your board, arrows move, R turns the tile, F flips it, Enter places it, Esc puts it back.
        Just placed: R turns it again, L lifts it. Tab reaches the bonus chip and the tasks.</p>`}
      <div class="mondo-grid">
        <div class="mine">
          ${mine && html`
            <h2>Your world</h2>
            <${Board} seat=${mine} border=${state.border} size=${64} highlight=${held && !readOnly ? state.spaces : []}
              onSpace=${readOnly ? null : place} grace=${grace} label=${`Your board: ${tileCount(mine.board.length)}`}
              cursor=${playing ? cursor : null} preview=${open ? shown : null}
              keys=${playing ? {
                ref: board, onKeyDown: onBoardKey, describedby: "mondo-cursor",
                label: `Your world, 4 rows of 6 spaces, ${tileCount(mine.board.length)}. Arrows move over the spaces, Enter places the tile in your hand, R turns it, F flips it, Escape puts it back.`,
              } : null} />
            ${playing && html`<p id="mondo-cursor" class="cell-status" aria-live="polite">${status}</p>`}
            ${grace && html`<p class="grace">Just placed: you may still
              ${turnPlaced.map((c) => html` <button type="button" onClick=${() => act(c)}>Turn it to ${c.rotation}°</button>`)}
              ${lift && html` <button type="button" onClick=${liftIt}>Lift it</button>`}
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
                  <button type="button" aria-disabled=${putBack ? null : "true"} onClick=${giveBack}>Put it back (Esc)</button>
                </div>
                <p class="hint">${state.spaces.length ? "Choose a highlighted space on your board." : "No space is open."}</p>`
              : html`<p class="hint">${mine.chip !== null ? `You took the bonus chip ${mine.chip}: your round is over.` : "Take a tile from the display."}</p>`}
              ${me !== null && !readOnly && html`<button type="button" class="primary" aria-disabled=${chip ? null : "true"} onClick=${() => act(chip)}>
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
                const claim = find((c) => c.type === "take_task" && c.task === t.task);
                return html`<li key=${t.task}>${t.task.replaceAll("_", " ")} (${t.points})
                  ${t.taken_by !== null ? html` — ${view.seats[t.taken_by].name}` : claim && html` <button type="button" onClick=${() => act(claim)}>Take the task ${t.task.replaceAll("_", " ")}</button>`}</li>`;
              })}</ul>
            </section>`}
        </div>
        <section class="display" aria-labelledby="display-title">
          <h2 id="display-title">The display (${state.display.length} tiles)</h2>
          <ul ref=${shelf} onKeyDown=${onDisplayKey}>
            ${tiles.map((d) => {
              const tile = d.shown.tile;
              const command = find((c) => c.type === "take_tile" && c.tile === tile);
              const holder = d.holder !== null && d.holder !== undefined ? view.seats[d.holder].name : null;
              return html`<li key=${tile}>
                <button type="button" class=${`display-tile ${holder ? "held-by" : ""}`} aria-disabled=${command ? null : "true"}
                  tabindex=${tile === rover ? "0" : "-1"} data-tile=${tile}
                  onClick=${() => take(command)} onFocus=${() => setCurrent(tile)}
                  aria-label=${`${faceWords(d.shown)}${holder ? `, held by ${holder}` : ""}`}>
                  <svg viewBox="0 0 40 40" aria-hidden="true"><${Face} face=${d.shown} /></svg>
                  ${holder && html`<span class="holder" aria-hidden="true">${holder}</span>`}
                </button></li>`;
            })}
          </ul>
        </section>
      </div>
      <section class="others" aria-label="The other boards">
        ${state.seats.filter((s) => s.seat !== me).map((s) => html`
          <div class="other" key=${s.seat}>
            <h3>${s.name}${s.chip !== null ? ` (left with ${s.chip})` : ""}: ${s.score_now.total} now</h3>
            <${Board} seat=${s} border=${state.border} size=${28} label=${`${s.name}'s board: ${tileCount(s.board.length)}`} />
          </div>`)}
      </section>
      ${state.last_round && html`
        <section class="breakdown" aria-labelledby="breakdown-title">
          <h2 id="breakdown-title">Round ${state.running ? state.round - 1 : state.round} scores</h2>
          <div class="breakdown-grid">${state.last_round.map((score, seat) => html`
            <div key=${seat}><h3>${view.seats[seat].name}</h3><${ScoreLines} score=${score} /></div>`)}</div>
        </section>`}
    </section>
  `;
}

export const MONDO = {
  title: "Mondo",
  Board: MondoBoard,
  simultaneous: true, // every seat plays at once: see `send` in table.js
  seatNote: (view, seat) => {
    const s = view.state.seats[seat];
    return `${tileCount(s.board.length)} laid${s.chip !== null ? `, left with chip ${s.chip}` : ""}`;
  },
  scoreLine: (view, seat) => `${view.state.seats[seat].total} over ${view.state.rounds} rounds`,
};
