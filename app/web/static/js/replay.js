// A game step by step, as the viewer may see it (a finished game shows everything).
import { html, useState, useEffect } from "./lib.js";
import { api } from "./api.js";
import { GAMES } from "./games.js";
import { points } from "./ending.js";
import { SeatBadge, seatClass } from "./moves.js";

// Where the arrow keys and Home and End are someone else's: a field being typed in, a list
// to choose from, the slider itself (it steps on its own) or a board that moves a cursor.
const OWN_KEYS = "input, textarea, select, [contenteditable], [role=application], .world.keyed";
const STEPS = { ArrowLeft: (n) => n - 1, ArrowRight: (n) => n + 1, Home: () => 1, End: () => Infinity };

/** Left and Right step the replay, Home and End go to its ends, wherever the focus is but in
 * a place that uses those keys itself. */
function useStepKeys(last, setAt) {
  useEffect(() => {
    if (!last) return undefined;
    const onKey = (event) => {
      const step = STEPS[event.key];
      if (!step || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
      if (event.target.closest && event.target.closest(OWN_KEYS)) return;
      event.preventDefault();
      setAt((n) => Math.min(last, Math.max(1, step(n))));
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [last]);
}

export function Replay({ gameId, token }) {
  const [log, setLog] = useState(null);
  const [at, setAt] = useState(1);
  const [view, setView] = useState(null);
  const [failure, setFailure] = useState(null);
  useStepKeys(log ? log.version : 0, setAt);

  useEffect(() => {
    api(`/api/games/${gameId}/events`, { token }).then(
      (events) => {
        setLog(events);
        setAt(events.version);
      },
      (refused) => setFailure(refused.message),
    );
  }, [gameId, token]);
  useEffect(() => {
    if (!log) return;
    api(`/api/games/${gameId}/replay?at=${at}`, { token }).then(setView, (r) => setFailure(r.message));
  }, [log, at]);

  if (failure) return html`<h1>This replay cannot be shown</h1><p class="refusal" role="alert">${failure}</p><p><a href="/">Back to the lobby</a></p>`;
  if (!log || !view) return html`<p>Loading the game…</p>`;
  const last = log.version;
  const game = GAMES[view.game];
  const entry = log.events[at - 1];
  const go = (n) => setAt(Math.min(last, Math.max(1, n)));
  return html`
    <div class="replay">
      <h1>Replay of ${game ? game.title : view.game}</h1>
      <p class="links"><a href=${`/rules/${view.game}`}>How to play</a> <a href="/">Lobby</a>
        ${log.status === "active" && html` <a href=${`/${token ? "play" : "watch"}/${gameId}${token ? `#t=${token}` : ""}`}>Back to the game</a>`}</p>
      <div class="steps" role="group" aria-label="Steps">
        <button type="button" onClick=${() => go(1)} disabled=${at === 1}>First</button>
        <button type="button" onClick=${() => go(at - 1)} disabled=${at === 1}>Previous</button>
        <button type="button" onClick=${() => go(at + 1)} disabled=${at === last}>Next</button>
        <button type="button" onClick=${() => go(last)} disabled=${at === last}>Last</button>
        <label class="slider">Step
          <input type="range" min="1" max=${last} value=${at} onInput=${(e) => go(Number(e.target.value))} />
        </label>
        <output aria-live="polite">Event ${at} of ${last}</output>
      </div>
      <p class="hint step-keys">Keys: Left and Right step, Home and End go to the first and the last event.</p>
      <p class="step-text" aria-live="polite">${entry ? entry.text : ""}</p>
      <section class="players" aria-label="Scores at this step">
        <ul>${view.seats.map((s) => html`<li class=${seatClass(s.seat)}><span class="head"><${SeatBadge} seat=${s.seat} /> <span class="name">${s.name}</span>${" "}<span class="score">${points(view.scores[s.seat])}</span></span></li>`)}</ul>
      </section>
      ${game && html`<${game.Board} view=${view} send=${async () => false} busy=${true} readOnly=${true} log=${log.events.slice(0, at)} />`}
    </div>
  `;
}
