// The table around the game (the view's `table`): the turn clock counting down; leaving and
// taking a seat back; resigning; calling a seat whose player seems gone, and the call's
// countdown. What each does is the server's rule (docs/rules/table.md): the page only asks.
import { html, useState, useEffect, useRef } from "./lib.js";
import { sinceMine } from "./moves.js";

/** Who has left the table, by seat: {seat, level, reason} (the AI level playing for them). */
export function awayOf(view) {
  return new Map(((view.table && view.table.away) || []).map((a) => [a.seat, a]));
}

/** Why a seat is played by the AI, in words: "left: the normal AI plays". */
export function lostWords(away) {
  const plays = `the ${away.level} AI plays`;
  return {
    left: `left: ${plays}`,
    timeouts: `ran out of time too often: ${plays}`,
    called: `did not answer the call: ${plays}`,
    resigned: `resigned: ${plays} on`,
  }[away.reason || "left"];
}

/** Why a seat counts last at the end, in words, or "" for a seat ranked by its score. */
export function endWords(view, seat) {
  const table = view.table;
  if (!table) return "";
  const away = awayOf(view).get(seat);
  if (away) {
    return {
      left: "left the table; the AI played on; counts last",
      timeouts: "ran out of time too often; the AI played on; counts last",
      called: "did not answer the call; the AI played on; counts last",
      resigned: "resigned; the AI played on; counts last",
    }[away.reason || "left"];
  }
  return (table.resigned || []).includes(seat) ? "resigned; counts last" : "";
}

/** The seats whose time ran out since your own last move (for a watcher: in the last turn). */
export function timedOutSince(view, log) {
  const found = new Set();
  for (const entry of sinceMine(log, view.seat)) {
    if (entry.event.type === "timed_out") found.add(entry.event.seat);
    else if (entry.by !== null && entry.by !== undefined) found.delete(entry.by);
  }
  return found;
}

/** The time left until `due` (server ms), ticking: [seconds left, the server's skew known]. */
function useLeft(due, serverNow) {
  const skew = useRef(0);
  const [tick, setTick] = useState(Date.now());
  useEffect(() => {
    skew.current = serverNow - Date.now();
  }, [serverNow]);
  useEffect(() => {
    const timer = setInterval(() => setTick(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.ceil((due - tick - skew.current) / 1000));
}

const clockFace = (left) => `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;

export function Seating({ view, log, send, busy, say }) {
  const table = view.table;
  const you = view.seat;
  const mine = you !== null && view.seats[you].type === "human";
  const away = awayOf(view).get(you);
  const resigned = (table.resigned || []).includes(you);
  const [asking, setAsking] = useState(null); // "leave" (leave or resign) or "resign" (away)
  const rated = !view.casual && view.seats.some((s) => s.player);
  const others = view.seats.filter((s) => s.seat !== you && !(table.resigned || []).includes(s.seat));
  const playsOn = others.length >= 2 && others.some((s) => s.type === "human");
  return html`
    <section class="seating" aria-label="Table">
      ${table.clock && html`<${TurnClock} view=${view} say=${say} />`}
      ${table.called && html`<${CallClock} view=${view} say=${say} />`}
      ${mine && away && !resigned && html`
        <p class="away-note">You left the table: the ${away.level} AI plays your seat.
          <button onClick=${() => send({ type: "rejoin" })} disabled=${busy}>Take my seat back</button></p>`}
      ${mine && resigned && html`<p class="away-note">You resigned: the ${away ? away.level : ""} AI plays your seat to the end.</p>`}
      ${mine && !resigned && !asking && html`
        <button class="leave" onClick=${() => setAsking(away ? "resign" : "leave")} disabled=${busy}>${away ? "Resign" : "Leave or resign"}</button>`}
      ${mine && asking === "leave" && html`
        <p class="confirm" role="group" aria-label="Leave or resign?">${`Leave: the ${table.takeover_level} AI plays your seat until you take it back.${rated
          ? " This game is rated: if you are not back at its end, it counts as a loss (you are ranked last)." : ""} Resign: you are ranked last${rated ? ", and it counts as a loss" : ""}; ${playsOn
          ? `the ${table.takeover_level} AI plays your seat to the end for the others` : "the game ends now"}; you cannot come back.`}
          <button onClick=${async () => { setAsking(null); await send({ type: "leave" }); }} disabled=${busy}>Leave table</button>
          <button onClick=${async () => { setAsking(null); await send({ type: "resign" }); }} disabled=${busy}>Resign</button>
          <button onClick=${() => setAsking(null)} autofocus>Stay</button></p>`}
      ${mine && asking === "resign" && html`
        <p class="confirm" role="group" aria-label="Resign?">${`Resign: you are ranked last${rated ? ", and this rated game counts as a loss" : ""}; ${playsOn
          ? `the ${table.takeover_level} AI plays your seat to the end for the others` : "the game ends now"}.`}
          <button onClick=${async () => { setAsking(null); await send({ type: "resign" }); }} disabled=${busy}>Resign</button>
          <button onClick=${() => setAsking(null)} autofocus>Play on</button></p>`}
      ${mine && !away && html`<${Calls} view=${view} log=${log} send=${send} busy=${busy} />`}
    </section>
  `;
}

/** How long a seat's turn has lasted before the page offers to call it (the server would take a
 * call at once: this only spares a player who is thinking). */
const CALL_OFFERED_AFTER = 60_000;

// A person's seat whose turn it is, at a table without a turn clock: the others may call it
// once the table has waited a minute; unless it moves within the call's time, the AI takes the
// seat (the server's rule).
function Calls({ view, log, send, busy }) {
  const table = view.table;
  const last = log.length ? log[log.length - 1].at : view.now;
  const skew = useRef(0);
  const [tick, setTick] = useState(Date.now());
  useEffect(() => {
    skew.current = view.now - Date.now();
  }, [view.now]);
  useEffect(() => {
    const timer = setInterval(() => setTick(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (table.clock || table.called || table.turn_seconds) return null;
  if (tick + skew.current - last < CALL_OFFERED_AFTER) return null;
  const away = awayOf(view);
  const callable = view.seats.filter((s) => s.seat !== view.seat && s.type === "human"
    && view.to_act.includes(s.seat) && !away.has(s.seat));
  if (!callable.length) return null;
  return html`${callable.map((s) => html`
    <button class="call" disabled=${busy} onClick=${() => send({ type: "call", seat: s.seat })}
      aria-describedby="call-words">Call ${s.name}</button>`)}
    <small id="call-words">${callable.length === 1 ? callable[0].name : "They"} seem${callable.length === 1 ? "s" : ""} gone? Call: unless they move in the call's time, the AI takes their seat.</small>`;
}

function CallClock({ view, say }) {
  const { seat, caller, due } = view.table.called;
  const left = useLeft(due, view.now);
  const you = seat === view.seat;
  const callerName = view.seats[caller] ? view.seats[caller].name : "A player";
  const spoken = useRef(false);
  useEffect(() => {
    if (!you || spoken.current) return;
    spoken.current = true;
    say(`${callerName} calls you: move within ${Math.ceil(left / 60)} minutes, or the AI takes your seat.`);
  }, [you]);
  const words = you
    ? html`${callerName} calls you: move within <strong>${clockFace(left)}</strong>, or the AI takes your seat.`
    : html`${callerName} called ${view.seats[seat].name}: <strong>${clockFace(left)}</strong> left to move, or the AI takes the seat.`;
  return html`<p class="call-clock" role="timer" aria-label=${`Call: ${left} seconds left`}>${words}</p>`;
}

function TurnClock({ view, say }) {
  const { seat, due } = view.table.clock;
  const left = useLeft(due, view.now);
  const whose = seat === view.seat ? "Your" : `${view.seats[seat].name}'s`;
  // Spoken, on your own clock only, at each full minute left and at 10 s: never every second.
  const spoken = useRef(null);
  useEffect(() => {
    if (seat !== view.seat || left === spoken.current) return;
    const before = spoken.current;
    spoken.current = left;
    if (before === null) return;
    if (left === 10) say("10 seconds left on your turn.");
    else if (left > 0 && left % 60 === 0) say(`${left / 60} ${left === 60 ? "minute" : "minutes"} left on your turn.`);
  }, [left, seat]);
  const strikes = view.table.strikes[seat] || 0;
  return html`
    <p class=${`turn-clock${left <= 10 ? " hurry" : ""}`} role="timer" aria-label=${`${whose} turn: ${left} seconds left`}>
      ${whose} turn: <strong>${clockFace(left)}</strong> left${left <= 10 ? " (hurry!)" : ""}
      ${strikes > 0 && html` <small>(timed out ${strikes} in a row; ${view.table.timeouts_to_ai} hand the seat to the AI)</small>`}
    </p>`;
}
