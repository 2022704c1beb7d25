// A title's leaderboard, `/leaderboards/GAME`: its established players (10 rated games or
// more), best first, each with their place, rating and rated games; and the links to every
// title's leaderboard that the page's header carries.
import { html, useState, useEffect } from "./lib.js";
import { api } from "./api.js";
import { GAMES } from "./games.js";
import { usePlayer } from "./session.js";
import { PlayerName, SETTLED_AFTER, Unavailable, boardHref, titleOf } from "./rating.js";

/** The header's links to each title's leaderboard; the one shown is marked current. */
export function BoardLinks() {
  const here = location.pathname;
  return html`<nav class="boards" aria-label="Leaderboards">
    <span aria-hidden="true">Leaderboards:</span>
    ${Object.keys(GAMES).map((game) => {
      const href = boardHref(game);
      return html`<a href=${href} aria-current=${here === href ? "page" : undefined}><span class="visually-hidden">Leaderboard of </span>${titleOf(game)}</a>`;
    })}
  </nav>`;
}

export function Leaderboard({ game }) {
  const [board, setBoard] = useState(null);
  const [failure, setFailure] = useState(null);
  const viewer = usePlayer();
  useEffect(() => {
    setBoard(null);
    setFailure(null);
    api(`/api/leaderboards/${encodeURIComponent(game)}`).then(setBoard, setFailure);
  }, [game]);
  const title = titleOf(game);
  useEffect(() => {
    if (board) document.title = `${title} leaderboard · Board games`;
  }, [board]);

  if (failure) return html`<${Unavailable} failure=${failure} missing=${["No such leaderboard", `There is no game called ${game} here.`]} />`;
  if (!board) return html`<p>Loading the leaderboard…</p>`;
  const me = viewer && viewer.toLowerCase();
  return html`
    <div class="leaderboard">
      <h1>${title} leaderboard</h1>
      <p class="hint">The players with ${SETTLED_AFTER} rated games of ${title} or more, best rating first. <a href=${`/rules/${game}`}>How to play</a></p>
      ${board.players.length === 0 ? html`<p>No player has played ${SETTLED_AFTER} rated games of ${title} yet.</p>` : html`
        <div class="leaders-head" aria-hidden="true"><span>Place</span><span>Player</span><span>Rating</span><span>Rated games</span></div>
        <ol class="leaders">
          ${board.players.map((p) => html`
            <li key=${p.player} value=${p.place} class=${p.player === me ? "you" : ""}>
              <span class="leader-place" aria-hidden="true">${p.place}</span>
              <span class="leader-name"><${PlayerName} name=${p.name} player=${p.player} />${p.player === me ? " (you)" : ""}</span>
              <span class="leader-rating"><span class="visually-hidden">rating </span>${p.rating}</span>
              <span class="leader-games">${p.games}<span class="visually-hidden"> rated games</span></span>
            </li>`)}
        </ol>`}
      <${AiLevels} levels=${board.ai_levels || []} title=${title} />
    </div>
  `;
}

/** The AI levels' public strength: rated among themselves, apart from the players. */
function AiLevels({ levels, title }) {
  if (!levels.length) return null;
  return html`<section class="ai-levels" aria-labelledby="ai-levels-title">
    <h2 id="ai-levels-title">The computer's levels</h2>
    <p class="hint">Rated only against each other, from games of ${title} that the AIs played alone:
      the figures tell the levels' order and how far apart they are, not where they stand among
      the players (a game with an AI seat moves no player's rating).</p>
    <ul>${levels.map((l) => html`<li key=${l.level}>
      <strong>${l.level}</strong>: ${l.rating} <span class="games">(${l.games} games)</span>
    </li>`)}</ul>
  </section>`;
}
