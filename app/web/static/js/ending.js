// A game's end: who won, in a sentence; the ranking with each seat's score breakdown (and, in
// a rated game, each player's rating change; a player's name links to their page); the chart
// of the scores; the fair deal checked; the links to its replay, its export and the lobby; a
// rematch.
import { html, useState, useEffect, useRef } from "./lib.js";
import { api, followTables } from "./api.js";
import { ScoreChart } from "./chart.js";
import { FairDeal } from "./fair-deal.js";
import { PlayerName, RatingChange } from "./rating.js";
import { useRatingChanges } from "./result.js";
import { endWords } from "./seating.js";
import { SETTLED_AFTER } from "./rating.js";

export const points = (n) => `${n} ${Math.abs(n) === 1 ? "point" : "points"}`;

/** "Ann and Bo" / "Ann, Bo and Cy". */
function together(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** "Ann wins with 686 points." (ties share the win; a solo game says what its player made). */
export function winnerWords(view) {
  const standings = view.standings || [];
  if (!standings.length) return "The game is over.";
  const first = standings.filter((s) => s.rank === 1);
  if (first.every((s) => endWords(view, s.seat))) return "nobody wins: every player left or resigned.";
  const names = first.map((s) => view.seats[s.seat].name);
  const score = points(first[0].score);
  if (view.seats.length === 1) return `${names[0]} ends with ${score}.`;
  if (first.length === 1) return `${names[0]} wins with ${score}.`;
  if (first.length === view.seats.length) return `A draw: ${together(names)} share the win with ${score} each.`;
  return `${together(names)} share the win with ${score} each.`;
}

export function Ending({ view, game, gameId, token, name, focus }) {
  const [timeline, setTimeline] = useState(null);
  const changes = useRatingChanges(view, gameId);
  const heading = useRef(null);
  useEffect(() => {
    api(`/api/games/${gameId}/timeline`, { token }).then(setTimeline, () => setTimeline(null));
  }, [gameId, view.version]);
  // The end comes into view, and the focus with it, wherever the player was on the page.
  useEffect(() => {
    if (!focus || !heading.current) return;
    heading.current.scrollIntoView({ block: "start" });
    heading.current.focus({ preventScroll: true });
  }, [focus]);
  const replay = `/replay/${gameId}${token ? `#t=${token}` : ""}`;
  return html`
    <section class="ending" aria-labelledby="final">
      <h2 id="final" tabindex="-1" ref=${heading}>The game is over: ${winnerWords(view)}</h2>
      <ol class="ranking">
        ${view.standings.map((s) => {
          const seat = view.seats[s.seat];
          const line = changes && changes.get(s.seat);
          return html`
          <li value=${s.rank}>
            <strong><${PlayerName} name=${seat.name} player=${seat.player} /></strong>: ${points(s.score)}
            ${game && game.scoreLine && html`<span class="line"> (${game.scoreLine(view, s.seat)})</span>`}
            ${endWords(view, s.seat) && html` <em class="lost">(${endWords(view, s.seat)})</em>`}
            ${line && line.change !== undefined && html` <${RatingChange} change=${line.change} />`}
          </li>`;
        })}
      </ol>
      ${changes && html`<${WhyChanges} />`}
      <${FairDeal} view=${view} gameId=${gameId} />
      <p class="links">
        <a href=${replay}>Replay the game</a>
        <a href=${`/api/games/${gameId}/export`} download=${`${view.game}-${gameId}.json`}>Export its log</a>
        <a href="/">Back to the lobby</a>
      </p>
      ${name && view.seat !== null && html`<${Rematch} gameId=${gameId} />`}
      ${timeline && html`<${ScoreChart} timeline=${timeline} />`}
    </section>
  `;
}

// Why the ratings moved as they did: a new player's rating moves far while the service learns
// their level (their first rated games are provisional), then less and less.
function WhyChanges() {
  return html`<p class="why-ratings">Why these changes: a rating moves by how its player placed
    against what the ratings expected, and most in a player's first ${SETTLED_AFTER} rated games
    (a provisional rating, marked "?"), while the service learns their level; then less and less.</p>`;
}

// Another game with the same players: a table with a seat kept for each of them, where each
// accepts or declines. Whoever asks first opens it; the others are told, live.
function Rematch({ gameId }) {
  const [offered, setOffered] = useState(null);
  const [refusal, setRefusal] = useState(null);
  const [busy, setBusy] = useState(false);
  useEffect(
    () => followTables({ onTables: (tables) => setOffered(tables.find((t) => t.rematch_of === gameId) || null) }),
    [gameId],
  );
  async function again() {
    setBusy(true);
    setRefusal(null);
    try {
      const table = await api(`/api/games/${gameId}/rematch`, { method: "POST" });
      location.assign(table.game_id ? `/play/${table.game_id}` : `/tables/${table.id}`);
    } catch (refused) {
      setRefusal(refused.message);
      setBusy(false);
    }
  }
  return html`
    <div class="rematch">
      <p role="status">${offered ? html`A rematch is offered: <a href=${`/tables/${offered.id}`}>its table</a>.` : ""}</p>
      <button type="button" class="primary" disabled=${busy} onClick=${again}>Play again</button>
      ${refusal && html`<p class="refusal" role="alert">${refusal}</p>`}
    </div>`;
}
