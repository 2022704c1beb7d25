// Mondo's table, on one screen: your world, the tile in your hand (turn it with the wheel or R,
// flip it with a right click or F) and the bonus chip on the left; the shared display and the
// score helper in the middle; the other worlds on the right; above them the round's clock from
// the server's deadline. Each seat's last placement is marked on its world; the round's scores
// open in a dialog between rounds. Where a tile may go, what a board would score: all from the API.
import { html, useState, useEffect, useRef, useLayoutEffect } from "./lib.js";
import { Face, LandPatterns, faceWords, turn } from "./mondo-face.js";
import { ROWS, World, lastPlacements, lastWords } from "./mondo-world.js";
import { RoundClock, useNow } from "./mondo-clock.js";
import { RoundScores, ScoreLines } from "./mondo-scores.js";
import { SeatBadge, seatClass } from "./moves.js";
import { COLS, clock, spaceName, specialName, taskName, tileCount } from "./mondo-words.js";
import { BonusChip } from "./mondo-chip.js";

export { Face, faceWords };

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

export function MondoBoard({ view, send, busy, log, readOnly = false }) {
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
  // A command chosen while the last one's answer is on its way waits for it (see `queued`).
  const act = (command) => {
    if (!command) return;
    if (busy) queued.current = { command };
    else send(command);
  };
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
  // The grace's clock: never more than the grace the server gave (`until` less the placement's
  // `at`), whatever the skew between the clocks; a 5-s grace never shows 0:06.
  const placedAt = grace && [...(log || [])].reverse().find((e) => e.event.type === "tile_placed" && e.event.seat === me);
  const graceLeft = grace ? Math.min(grace.until - now, placedAt ? grace.until - placedAt.event.at : Infinity) : 0;
  const left = state.running ? state.deadline - now : state.next_round_at ? state.next_round_at - now : 0;

  async function take(command) {
    if (!command) return;
    if (busy) {
      queued.current = { command };
      return;
    }
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
    // The round's scores dialog is inside the table: its keys are not the board's.
    if (event.target.tagName === "INPUT" || event.target.closest("dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (busy && !held && (key === "r" || key === "l")) {
      queued.current = { key }; // done once the command on its way is answered
      return;
    }
    graceKey(key);
  }
  function graceKey(key) {
    if (key === "r") {
      if (held) turnHeld();
      else if (turnNext) act(turnNext);
    } else if (key === "f" && held) flipHeld();
    else if (key === "l" && lift) liftIt();
  }
  // A grace key (R, L) pressed, or a tile, chip, task or turn chosen, while the last command was
  // on its way is not lost: it acts on the table as the answer left it, if that still allows it.
  const queued = useRef(null);
  useEffect(() => {
    if (busy || !queued.current) return;
    const next = queued.current;
    queued.current = null;
    const again = next.command && find((c) => Object.keys(next.command).every((k) => c[k] === next.command[k]));
    if (next.key) graceKey(next.key);
    else if (again && again.type === "take_tile") take(again);
    else act(again);
  }, [busy]);
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

  const last = lastPlacements(log);
  const others = state.seats.filter((s) => s.seat !== me);
  // After the chip in the focus order: Shift+Tab from the display reaches them first.
  const tasks = state.tasks.length > 0 && html`
              <section class="tasks" aria-labelledby="tasks-title">
                <h3 id="tasks-title">Tasks</h3>
                <ul>${state.tasks.map((t) => {
                  const claim = find((c) => c.type === "take_task" && c.task === t.task);
                  return html`<li key=${t.task}>${taskName(t.task)} (${t.points})
                    ${t.taken_by !== null ? html` — ${view.seats[t.taken_by].name}` : claim && html` <button type="button" onClick=${() => act(claim)}>Take the task ${taskName(t.task)}</button>`}</li>`;
                })}</ul>
              </section>`;

  return html`
    <section class="mondo" aria-label="Mondo table" onKeyDown=${onKey} ref=${section}>
      <${LandPatterns} />
      <div class="round-bar">
        <strong>Round ${state.round} of ${state.rounds}</strong>
        <${RoundClock} state=${state} left=${left} />
        <span>Bonus chips left: ${state.chips.length ? state.chips.join(", ") : "none"}</span>
        ${state.special && html`<span class="special">Special scoring: <strong>${specialName(state.special)}</strong>${" "}<span class="rule">(+4 for the most, −4 for the fewest)</span></span>`}
        <${RoundScores} state=${state} seats=${view.seats} log=${log} breakMs=${state.running ? 0 : left} />
        ${playing && html`<details class="keys-help"><summary>Keys</summary>
          <p class="keys" id="mondo-keys">In the display, arrows choose a tile and Enter takes it;
          on your board, arrows move, R turns the tile, F flips it, Enter places it, Esc puts it back.
          Just placed: R turns it again, L lifts it. Tab reaches the bonus chip and the tasks.</p></details>`}
      </div>
      <div class=${`mondo-grid${mine ? "" : " watching"}`}>
        ${mine && html`<div class="mine">
            <h2>Your world</h2>
            <${World} seat=${mine} border=${state.border} size=${64} highlight=${held && !readOnly ? state.spaces : []}
              onSpace=${readOnly ? null : place} grace=${grace} last=${last.get(me)}
              label=${`Your board: ${tileCount(mine.board.length)}${lastWords(mine, last.get(me))}`}
              cursor=${playing ? cursor : null} preview=${open ? shown : null}
              keys=${playing ? {
                ref: board, onKeyDown: onBoardKey, describedby: "mondo-cursor",
                label: `Your world, 4 rows of 6 spaces, ${tileCount(mine.board.length)}. Arrows move over the spaces, Enter places the tile in your hand, R turns it, F flips it, Escape puts it back.`,
              } : null} />
            ${playing && html`<p id="mondo-cursor" class="cell-status" aria-live="polite">${status}</p>`}
            ${grace && html`<p class="grace">Just placed: you may still
              ${turnPlaced.map((c) => html` <button type="button" onClick=${() => act(c)}>Turn it to ${c.rotation}°</button>`)}
              ${lift && html` <button type="button" onClick=${liftIt}>Lift it</button>`}
              ${" "}(${clock(graceLeft)})</p>`}
            <section class="held" aria-labelledby="held-title">
              <h3 id="held-title">In your hand</h3>
              ${held ? html`
                <div class="held-row">
                  <div class="held-tile" tabindex="0" role="group" aria-label=${`${faceWords(shown)}, turned ${rotation}°. R turns it, F flips it.`}
                    onWheel=${(e) => { e.preventDefault(); turnHeld(); }}
                    onContextMenu=${(e) => { e.preventDefault(); flipHeld(); }}>
                    <svg viewBox="0 0 96 96" aria-hidden="true"><${Face} face=${shown} size=${96} /></svg>
                  </div>
                  <div class="row">
                    <button type="button" onClick=${turnHeld}>Turn (R)</button>
                    <button type="button" onClick=${flipHeld}>Flip (F)</button>
                    <button type="button" aria-disabled=${putBack ? null : "true"} onClick=${giveBack}>Put it back (Esc)</button>
                    <p class="hint">${state.spaces.length ? "Choose a highlighted space on your board." : "No space is open."}</p>
                  </div>
                </div>`
              : html`<p class="hint">${mine.chip !== null ? `You took the bonus chip ${mine.chip}: your round is over.` : "Take a tile from the display."}</p>`}
              ${me !== null && !readOnly && html`<${BonusChip} chip=${chip} top=${state.chips[0]} seat=${mine} holding=${!!held} act=${act} />`}
            </section>
            ${tasks}
          </div>`}
        <div class="middle">
          <section class="display" aria-labelledby="display-title">
            <h2 id="display-title">The display (${tileCount(state.display.length)})</h2>
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
          ${mine && html`<section class="helper" aria-labelledby="helper-title">
            <h3 id="helper-title">Your score if the round ended now</h3>
            <${ScoreLines} score=${mine.score_now} special=${state.special} />
          </section>`}
          ${!mine && tasks}
        </div>
        <section class="others" aria-label=${mine ? "The other boards" : "The boards"}>
          ${others.map((s) => html`
            <div class=${`other ${seatClass(s.seat)}`} key=${s.seat}>
              <h3><${SeatBadge} seat=${s.seat} /> ${s.name}: ${s.score_now.total} now</h3>
              ${s.chip !== null && html`<p class="left-with">Left the round with chip ${s.chip}</p>`}
              <${World} seat=${s} border=${state.border} size=${mine ? 28 : 40} last=${last.get(s.seat)}
                label=${`${s.name}'s board: ${tileCount(s.board.length)}${lastWords(s, last.get(s.seat))}`} />
            </div>`)}
        </section>
      </div>
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
