// A logged-in player's games (the ones waiting for them first), tables being formed, and the
// last finished games: each with its result as recorded (place, score, rating change) and its
// replay.
import { html, useState, useEffect, ago } from "./lib.js";
import { api } from "./api.js";
import { forget } from "./session.js";
import { whoSits } from "./seats.js";
import { points } from "./ending.js";
import { PlayerName, RatingChange, placeWords } from "./rating.js";

const EVERY_MS = 15_000;

/** `GET /api/me/games`, again at every `refresh` and every 15 s. */
function useMyGames(refresh) {
  const [mine, setMine] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let stopped = false;
    const load = () =>
      api("/api/me/games").then(
        (answer) => !stopped && setMine(answer),
        (refused) => {
          if (refused.code === "not_logged_in") forget();
          else if (!stopped) setError(refused.message);
        },
      );
    load();
    const timer = setInterval(load, EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [refresh]);
  return [mine, error];
}

function gameState(g) {
  if (g.status === "over") return "finished";
  return g.your_turn ? "your turn" : "waiting for the others";
}

export function MyGames({ refresh }) {
  const [mine, error] = useMyGames(refresh);
  if (error) return html`<p class="refusal" role="alert">${error}</p>`;
  if (!mine) return html`<p>Loading…</p>`;
  const games = [...mine.games].sort((a, b) => Number(b.your_turn) - Number(a.your_turn));
  const finished = mine.finished || [];
  const now = Date.now();
  return html`
    ${games.length === 0 ? html`<p>${finished.length ? "No game running" : "No game yet"}: join a table, or open one.</p>` : html`
      <ul class="my-games">
        ${games.map((g) => html`
          <li key=${g.id} class=${g.your_turn ? "yours" : ""}>
            <a href=${`/play/${g.id}`}>${g.title}</a>
            <strong class="state">${gameState(g)}</strong>
            <span>${g.seats.map((s) => s.name).join(", ")}</span>
            <small>${ago(g.created, now)}</small>
          </li>`)}
      </ul>`}
    ${mine.tables.length > 0 && html`
      <h3>Your tables being formed</h3>
      <ul class="my-games">
        ${mine.tables.map((t) => html`
          <li key=${t.id}><a href=${`/tables/${t.id}`}>${t.title}</a> <span>${whoSits(t)}</span></li>`)}
      </ul>`}
    ${finished.length > 0 && html`<${Finished} games=${finished} now=${now} />`}
  `;
}

/** The last finished games, newest first: the result in words (never colour alone). */
function Finished({ games, now }) {
  return html`
    <h3 id="finished-games">Finished games</h3>
    <ul class="my-games finished" aria-labelledby="finished-games">
      ${games.map((g) => {
        const mine = g.seats.find((s) => s.seat === g.seat);
        const others = g.seats.filter((s) => s.seat !== g.seat);
        return html`
          <li key=${g.id}>
            <a href=${`/replay/${g.id}`}><span class="visually-hidden">Replay of </span>${g.title}</a>
            <strong class="result">${placeWords(mine.place, g.seats)}, ${points(mine.score)}</strong>
            ${g.rated && mine.change !== undefined ? html`<${RatingChange} change=${mine.change} />`
              : html`<span class="casual">${g.rated ? "rated" : "casual"}</span>`}
            ${others.length > 0 && html`<span class="against">against ${others.map((s, k) => html`${k ? ", " : ""}<${PlayerName} name=${s.name} player=${s.player} />`)}</span>`}
            <small>${ago(g.ended, now)}</small>
          </li>`;
      })}
    </ul>`;
}
