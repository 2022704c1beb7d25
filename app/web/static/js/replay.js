// A game step by step, as the viewer may see it (a finished game shows everything).
import { html, useState, useEffect } from "./lib.js";
import { api } from "./api.js";
import { GAMES } from "./games.js";
import { points } from "./ending.js";
import { SeatBadge, seatClass } from "./moves.js";

export function Replay({ gameId, token }) {
  const [log, setLog] = useState(null);
  const [at, setAt] = useState(1);
  const [view, setView] = useState(null);
  const [failure, setFailure] = useState(null);

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
      <p class="step-text" aria-live="polite">${entry ? entry.text : ""}</p>
      <section class="players" aria-label="Scores at this step">
        <ul>${view.seats.map((s) => html`<li class=${seatClass(s.seat)}><span class="head"><${SeatBadge} seat=${s.seat} /> <span class="name">${s.name}</span>${" "}<span class="score">${points(view.scores[s.seat])}</span></span></li>`)}</ul>
      </section>
      ${game && html`<${game.Board} view=${view} send=${async () => false} busy=${true} readOnly=${true} log=${log.events.slice(0, at)} />`}
    </div>
  `;
}
