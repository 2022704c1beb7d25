// A player's page, `/players/NAME`: at each title they played, their rating (a "?" while it
// is provisional), their place on its leaderboard, their games, wins and scores, and their
// rating's chart; then their last games, each with its result and a link to its replay.
import { html, useState, useEffect } from "./lib.js";
import { api } from "./api.js";
import { usePlayer } from "./session.js";
import { points } from "./ending.js";
import { RatingChart } from "./rating-chart.js";
import { PlayerName, Rating, RatingChange, SETTLED_AFTER, Unavailable, boardHref, ordinal, placeWords, titleOf, when } from "./rating.js";

/** The key the records name a player by: the name in lower case. */
const keyOf = (name) => name.toLowerCase();

/** How many players a leaderboard lists (the server's BOARD_SIZE). */
const BOARD_SIZE = 100;

/** A mean score with at most one decimal. */
const mean = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

export function PlayerPage({ name }) {
  const [page, setPage] = useState(null);
  const [failure, setFailure] = useState(null);
  useEffect(() => {
    setPage(null);
    setFailure(null);
    api(`/api/players/${encodeURIComponent(name)}`).then(setPage, setFailure);
  }, [name]);
  useEffect(() => {
    if (page) document.title = `${page.name} · Board games`;
  }, [page]);

  if (failure) return html`<${Unavailable} failure=${failure} missing=${["No such player", `There is no player called ${name} here.`]} />`;
  if (!page) return html`<p>Loading the player…</p>`;
  return html`
    <div class="player-page">
      <h1>${page.name}</h1>
      <p class="hint">A rated game moves its players' ratings at its title; a rating is provisional, with a "?", for its first ${SETTLED_AFTER} rated games.</p>
      ${page.titles.length === 0 && html`<p>No finished game yet.</p>`}
      <div class="titles">
        ${page.titles.map((t) => html`<${TitleRecord} key=${t.game} record=${t} />`)}
      </div>
      ${page.games.length > 0 && html`<${LastGames} games=${page.games} player=${page.name} />`}
    </div>
  `;
}

function TitleRecord({ record }) {
  const title = titleOf(record.game);
  const id = `title-${record.game}`;
  return html`
    <section class="title-record" aria-labelledby=${id}>
      <h2 id=${id}>${title}</h2>
      <div class="facts">
        <dl class="stats">
          <div class="wide"><dt>Rating</dt><dd><${Rating} rating=${record.rating} provisional=${record.provisional} rated=${record.rated_games} /></dd></div>
          <div class="wide"><dt>Leaderboard</dt><dd><${Place} record=${record} title=${title} /></dd></div>
          <div><dt>Rated games</dt><dd>${record.rated_games}</dd></div>
          <div><dt>Games</dt><dd>${record.games}</dd></div>
          <div><dt>Wins</dt><dd>${record.wins}</dd></div>
          <div><dt>Mean score</dt><dd>${mean(record.mean_score)}</dd></div>
          <div><dt>Best score</dt><dd>${record.best_score ?? "none yet"}</dd></div>
        </dl>
        <${RatingChart} title=${title} chart=${record.chart} />
      </div>
    </section>
  `;
}

function Place({ record, title }) {
  const board = boardHref(record.game);
  if (record.place && record.place <= BOARD_SIZE) return html`<a href=${board}>${ordinal(record.place)}</a>`;
  if (record.place) return html`${ordinal(record.place)} (<a href=${board}>the ${title} leaderboard</a> lists the first ${BOARD_SIZE})`;
  if (record.provisional) return html`listed after ${SETTLED_AFTER} rated games (<a href=${board}>the ${title} leaderboard</a>)`;
  return html`not listed (<a href=${board}>the ${title} leaderboard</a>)`;
}

function LastGames({ games, player }) {
  const me = keyOf(player);
  const viewer = usePlayer();
  return html`
    <section class="last-games" aria-labelledby="last-games">
      <h2 id="last-games">Last games</h2>
      <ol class="history">
        ${games.map((g) => {
          const mine = g.seats.find((s) => s.player === me);
          const others = g.seats.filter((s) => s !== mine);
          return html`
            <li key=${g.id}>
              <a class="game" href=${`/replay/${g.id}`}><span class="visually-hidden">Replay of </span>${titleOf(g.game)}, <time datetime=${new Date(g.ended).toISOString()}>${when(g.ended)}</time></a>
              ${mine && html`<span class="result">${placeWords(mine.place, g.seats)}</span>
                <span class="score">${points(mine.score)}</span>`}
              ${others.length > 0 && html`<span class="against">against ${others.map((s, k) => html`${k ? ", " : ""}<${PlayerName} name=${s.name} player=${s.player} />${s.player && viewer && s.player === keyOf(viewer) ? " (you)" : ""}`)}</span>`}
              ${!g.rated ? html`<span class="casual">casual, unrated</span>`
                : mine && mine.change !== undefined ? html`<${RatingChange} change=${mine.change} />` : html`<span>rated</span>`}
            </li>`;
        })}
      </ol>
    </section>
  `;
}

