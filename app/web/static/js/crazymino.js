// Crazymino's table: the 14×14 board, the hand, and the controls the rules page describes.
// What a seat may do, and what a placement would score, come from the API (legal, hints);
// a placement the client sends anyway is refused by the server, in the server's words.
import { html, useState, useEffect, useRef, useMemo } from "./lib.js";
import { BoardMap, COLOURS, COLUMNS, S, SIZE, TileFace, cellName, tileWords, turned } from "./crazymino-tiles.js";
import { LastPlacements, lastPlacements } from "./crazymino-marks.js";
import { bringIntoView } from "./crazymino-scroll.js";

/** "1 tile", "2 tiles". */
const count = (n, noun) => `${n} ${Math.abs(n) === 1 ? noun : `${noun}s`}`;

export { SHAPE, Shape, TileFace, tileWords, turned, SIZE } from "./crazymino-tiles.js";

function scoreWords(score) {
  const base = score.colour_bonus ? `(${score.sum} + ${score.colour_bonus} colour bonus)` : `${score.sum}`;
  const bridge = score.active_corners === 2 ? (score.bridged ? ", bridging" : ", one group") : "";
  let text = `${base} × ${score.corner_multiplier} (${score.active_corners} corners${bridge})`;
  if (score.cell_multiplier > 1) text += ` × ${score.cell_multiplier} (cell)`;
  return `${score.total} points: ${text}`;
}

function cellWords(state, row, col, placed, fit, last) {
  const colour = COLOURS[state.board[row][col]];
  const times = state.multipliers.find((m) => m.row === row && m.col === col);
  let text = `Cell ${cellName(row, col)}, ${colour}${times ? `, ×${times.times}` : ""}`;
  if (placed) {
    text += `: ${placed.colour} tile ${placed.corners.join("-")}`;
    const by = placed.seat !== undefined && placed.seat !== null ? state.seats[placed.seat] : null;
    const lastOne = by && last.get(placed.seat);
    if (lastOne && lastOne.event.row === row && lastOne.event.col === col) {
      text += `, ${by.name}'s last tile (seat ${placed.seat + 1}), ${lastOne.event.score.total} points`;
    }
  } else if (fit) {
    text += `: the selected tile fits here for ${scoreWords(fit.hint)}`;
  }
  return text;
}

export function CrazyminoBoard({ view, send, busy, log, readOnly = false }) {
  const state = view.state;
  const me = view.seat;
  const hand = me !== null ? state.seats[me].hand || [] : [];
  const mine = !readOnly && me !== null && view.to_act.includes(me) && view.status === "active";
  const [selected, setSelected] = useState(null); // tile id
  const [rotation, setRotation] = useState(0);
  const [cursor, setCursor] = useState([6, 6]);
  const [pointing, setPointing] = useState(null);
  const [drag, setDrag] = useState(null);
  const board = useRef(null);
  const scroller = useRef(null);
  const dock = useRef(null);
  const keyed = useRef(false); // the cursor moved by a key, not by a tap or a click
  // Where the mouse was last seen, and where it rested when a key took over: until it moves
  // from there, the keys speak (a page that shifts under a still mouse points at nothing).
  const mouseAt = useRef(null);
  const resting = useRef(null);
  const shown = () => ({
    board: board.current, scroller: scroller.current, dock: dock.current,
    labels: scroller.current ? scroller.current.querySelector(".row-labels").offsetWidth : 0,
  });

  useEffect(() => {
    if (selected !== null && !hand.some((t) => t.tile === selected)) setSelected(null);
  }, [view.version]);

  // Where each (tile, rotation) may go, and what it would score: from the API.
  const fits = useMemo(() => {
    const found = new Map();
    view.legal.forEach((c, n) => {
      if (c.type !== "place_tile") return;
      const key = `${c.tile}:${c.rotation}`;
      if (!found.has(key)) found.set(key, new Map());
      found.get(key).set(`${c.row},${c.col}`, { ...c, hint: view.hints[n] });
    });
    return found;
  }, [view.version, view.legal]);
  const here = fits.get(`${selected}:${rotation}`) || new Map();
  const placed = new Map(state.placements.map((p) => [`${p.row},${p.col}`, p]));
  const face = hand.find((t) => t.tile === selected);
  // A tile picked (or turned) shows where it fits: one of those cells comes into view.
  useEffect(() => {
    if (selected !== null && here.size) bringIntoView(shown(), [...here.values()].map((f) => [f.row, f.col]));
  }, [selected, rotation]);
  useEffect(() => {
    if (keyed.current) bringIntoView(shown(), [cursor]);
    keyed.current = false;
  }, [cursor]);
  const canDraw = view.legal.some((c) => c.type === "draw_and_pass");
  const marks = lastPlacements(log);

  function choose(tile) {
    if (tile === selected) setRotation((rotation + 90) % 360);
    else {
      setSelected(tile);
      setRotation(0);
    }
  }
  function nextTile() {
    if (!hand.length) return;
    const at = hand.findIndex((t) => t.tile === selected);
    setSelected(hand[(at + 1) % hand.length].tile);
    setRotation(0);
  }
  async function lay(row, col) {
    if (selected === null || !mine || busy) return;
    const ok = await send({ type: "place_tile", tile: selected, rotation, row, col });
    if (ok) setSelected(null);
  }
  function onKey(event) {
    if (event.target.tagName === "BUTTON" || event.target.tagName === "INPUT") {
      if (event.key !== "r" && event.key !== "n") return;
    }
    const [row, col] = cursor;
    setPointing(null); // the keys speak of the cursor, wherever the mouse rests
    resting.current = mouseAt.current;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const onBoard = event.target === board.current;
    if (moves[event.key] && onBoard) {
      const [dr, dc] = moves[event.key];
      keyed.current = true;
      setCursor([Math.min(SIZE - 1, Math.max(0, row + dr)), Math.min(SIZE - 1, Math.max(0, col + dc))]);
      event.preventDefault();
    } else if ((event.key === "Enter" || event.key === " ") && onBoard) {
      lay(row, col);
      event.preventDefault();
    } else if (event.key === "r" || event.key === "R") {
      if (selected !== null) setRotation((rotation + 90) % 360);
    } else if (event.key === "n" || event.key === "N") {
      nextTile();
    }
  }
  function point(event, row, col) {
    if (event.pointerType !== "mouse") return;
    const at = resting.current;
    if (at && at.x === event.clientX && at.y === event.clientY) return; // the page moved, not the mouse
    resting.current = null;
    setPointing([row, col]);
  }
  function cellAt(clientX, clientY) {
    const box = board.current.getBoundingClientRect();
    const col = Math.floor(((clientX - box.left) / box.width) * SIZE);
    const row = Math.floor(((clientY - box.top) / box.height) * SIZE);
    return row >= 0 && row < SIZE && col >= 0 && col < SIZE ? [row, col] : null;
  }
  function startDrag(event, tile) {
    // A mouse drags; a finger taps the tile, then the cell (its swipes scroll the hand and board).
    if (!mine || event.pointerType !== "mouse") return;
    const start = { x: event.clientX, y: event.clientY };
    let moving = false;
    const move = (e) => {
      if (!moving && Math.hypot(e.clientX - start.x, e.clientY - start.y) < 6) return;
      if (!moving) {
        moving = true;
        if (tile !== selected) {
          setSelected(tile);
          setRotation(0);
        }
      }
      setDrag({ tile, x: e.clientX, y: e.clientY });
    };
    const up = (e) => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      setDrag(null);
      if (!moving) return;
      const cell = cellAt(e.clientX, e.clientY);
      if (cell) {
        setCursor(cell);
        layDragged(tile, cell);
      }
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
  }
  async function layDragged(tile, [row, col]) {
    const turn = tile === selected ? rotation : 0;
    const ok = await send({ type: "place_tile", tile, rotation: turn, row, col });
    if (ok) setSelected(null);
  }

  const [cr, cc] = cursor;
  const status = pointing
    ? cellWords(state, pointing[0], pointing[1], placed.get(pointing.join(",")), here.get(pointing.join(",")), marks.last)
    : cellWords(state, cr, cc, placed.get(`${cr},${cc}`), here.get(`${cr},${cc}`), marks.last);
  const draggedFace = drag && hand.find((t) => t.tile === drag.tile);
  // The selected tile, shown where it would go: the cell pointed at, else the cursor's.
  const spot = pointing || cursor;
  const preview = face && here.has(spot.join(",")) ? spot : null;

  const toAct = view.to_act.map((seat) => view.seats[seat].name).join(", ");
  // Whose turn, in a line the phone's bar keeps short (the longer help is for the wide screen).
  const turnLine = view.status !== "active" ? "The game is over."
    : mine ? html`Your turn: pick a tile, then a cell.<span class="more"> Pick the tile again to turn it, or drag it onto the board.</span>`
    : `${toAct} to play; wait for your turn.`;
  const playing = !readOnly && me !== null;

  return html`
    <section class="crazymino" onKeyDown=${onKey} aria-label="Crazymino table">
      <div class="board-scroller" ref=${scroller}>
        <div class="board-grid">
          <span class="corner" aria-hidden="true"></span>
          <ol class="col-labels" aria-hidden="true">${[...COLUMNS].map((letter) => html`<li>${letter}</li>`)}</ol>
          <ol class="row-labels" aria-hidden="true">${[...COLUMNS].map((_, n) => html`<li>${n + 1}</li>`)}</ol>
          <div class="board" ref=${board} tabindex="0" role="application"
            onPointerMove=${(e) => { mouseAt.current = { x: e.clientX, y: e.clientY }; }}
            aria-label=${`Board, 14 by 14: columns A to N from the left, rows 1 to 14 from the top. Arrow keys move over the board${playing
              ? "; Enter lays the selected tile on the cell; R turns it; N picks the next tile of your hand" : ""}.`}
            aria-describedby="cell-status">
            <svg viewBox=${`0 0 ${SIZE * S} ${SIZE * S}`} aria-hidden="true">
              <${BoardMap} state=${state} />
              ${state.placements.map((p) => html`<${TileFace} colour=${p.colour} corners=${p.corners} x=${p.col * S} y=${p.row * S} className=${p.seat === undefined || p.seat === null ? "start" : ""} />`)}
              ${[...here.values()].map((f) => html`
                <rect class="fit" x=${f.col * S + 2} y=${f.row * S + 2} width=${S - 4} height=${S - 4} />`)}
              ${Array.from({ length: SIZE * SIZE }, (_, i) => {
                const row = Math.floor(i / SIZE);
                const col = i % SIZE;
                return html`<rect class="hit" x=${col * S} y=${row * S} width=${S} height=${S}
                  data-row=${row} data-col=${col}
                  onPointerEnter=${(e) => point(e, row, col)}
                  onPointerLeave=${() => setPointing(null)}
                  onClick=${() => { setCursor([row, col]); lay(row, col); }} />`;
              })}
              <${LastPlacements} ...${marks} />
              ${preview && html`<${TileFace} colour=${face.colour} corners=${turned(face.corners, rotation)}
                x=${preview[1] * S} y=${preview[0] * S} className="preview" />`}
              <rect class="cursor" x=${cc * S + 1} y=${cr * S + 1} width=${S - 2} height=${S - 2} />
            </svg>
          </div>
        </div>
      </div>
      <div class=${`side${playing ? " dock" : ""}`} ref=${dock}>
        ${readOnly && html`<${Hands} state=${state} />`}
        ${playing && html`
          <p class=${`turn-line${mine ? " mine" : ""}`}>${turnLine}</p>
          <section class="hand" aria-labelledby="hand-title">
            <h2 id="hand-title">Your hand (${hand.length} ${hand.length === 1 ? "tile" : "tiles"})</h2>
            <ul>
              ${hand.map((t) => {
                const chosen = t.tile === selected;
                const turn = chosen ? rotation : 0;
                const anywhere = [0, 90, 180, 270].some((r) => fits.has(`${t.tile}:${r}`));
                return html`<li>
                  <button type="button" class=${`hand-tile ${chosen ? "chosen" : ""} ${anywhere ? "fits" : ""}`}
                    aria-pressed=${chosen} data-tile=${t.tile}
                    aria-label=${`${tileWords(t, turn)}${chosen ? `, selected, turned ${turn}°` : ""}${anywhere ? ", fits somewhere" : ""}`}
                    onClick=${() => choose(t.tile)} onPointerDown=${(e) => startDrag(e, t.tile)}>
                    <svg viewBox="0 0 40 40" aria-hidden="true"><${TileFace} colour=${t.colour} corners=${turned(t.corners, turn)} /></svg>
                  </button></li>`;
              })}
            </ul>
          </section>
          <div class="controls">
            <button type="button" disabled=${selected === null} onClick=${() => setRotation((rotation + 90) % 360)}>Rotate tile</button>
            <button type="button" class="draw" disabled=${!mine || !canDraw || busy} onClick=${() => send({ type: "draw_and_pass" })}>Draw a tile & pass</button>
            <span class="pile">Pile: ${state.pile_size} ${state.pile_size === 1 ? "tile" : "tiles"}</span>
          </div>`}
        <p id="cell-status" class="cell-status" aria-live="polite">${status}</p>
        ${face && html`<p class="selected">Selected: ${tileWords(face, rotation)}, turned ${rotation}°; it fits ${here.size} ${here.size === 1 ? "cell" : "cells"}.</p>`}
        ${!playing && html`<p class="pile">Pile: ${state.pile_size} ${state.pile_size === 1 ? "tile" : "tiles"}</p>`}
        ${playing && html`<p class="keys">Keys: arrows move over the board, Enter lays the selected tile, R turns it, N picks the next tile.</p>`}
      </div>
      ${draggedFace && html`<div class="ghost" aria-hidden="true" ref=${(el) => el && (el.style.transform = `translate(${drag.x - 24}px, ${drag.y - 24}px)`)}>
        <svg viewBox="0 0 40 40"><${TileFace} colour=${draggedFace.colour} corners=${turned(draggedFace.corners, rotation)} /></svg></div>`}
    </section>
  `;
}

/** Every hand the view shows (a replay: the seat's own, or all of them once the game is over). */
function Hands({ state }) {
  const shown = state.seats.filter((s) => s.hand);
  return html`<section class="hands" aria-label="Hands at this step">
    ${shown.map((s) => html`<div><h2>${s.name}'s hand (${s.hand.length})</h2>
      <ul class="mini">${s.hand.map((t) => html`<li><svg viewBox="0 0 40 40" role="img" aria-label=${tileWords(t)}>
        <${TileFace} colour=${t.colour} corners=${t.corners} /></svg></li>`)}</ul></div>`)}
  </section>`;
}

export const CRAZYMINO = {
  title: "Crazymino",
  Board: CrazyminoBoard,
  seatNote: (view, seat) => `${count(view.state.seats[seat].hand_size, "tile")} in hand`,
  scoreLine: (view, seat) => {
    const laid = view.state.placements.filter((p) => p.seat === seat);
    const points = laid.reduce((sum, p) => sum + p.score.total, 0);
    const ended = view.state.ended;
    const bonus = ended && ended.seat === seat ? ended.bonus.reduce((sum, b) => sum + b.points, 0) : 0;
    return `${count(laid.length, "tile")} laid for ${count(points, "point")}${bonus ? `, ${count(bonus, "point")} for the last tile` : ""}`;
  },
};
