// The lobby: the games, newest first, and a form to create one from what the server hosts;
// for a logged-in player also their games, the open tables (live) and a form to open one.
import { html, useState, useEffect, ago } from "./lib.js";
import { api } from "./api.js";
import { OptionFields } from "./options.js";
import { usePlayer } from "./session.js";
import { NewTable, OpenTables, useTables } from "./tables.js";
import { MyGames } from "./mygames.js";

const PAGE = 10;

export function Lobby() {
  const [types, setTypes] = useState(null);
  const [created, setCreated] = useState(null);
  const name = usePlayer();
  const tables = useTables(name);
  useEffect(() => {
    api("/api/games/types").then(setTypes);
  }, []);
  const newGame = html`
    ${types ? html`<${NewGame} types=${types} onCreated=${setCreated} />` : html`<p>Loading…</p>`}
    ${created && html`<${Created} game=${created} />`}`;
  const guestGame = name ? html`
    <details class="links-game" open=${Boolean(created)}>
      <summary>New game with seat links</summary>
      <p class="hint">Each person's seat is a link to send them: nobody needs an account.</p>
      ${newGame}
    </details>` : html`
    <section aria-labelledby="new-game">
      <h2 id="new-game">New game</h2>
      ${newGame}
    </section>`;
  const games = html`
    <section aria-labelledby="games">
      <h2 id="games">${name ? "Every game" : "Games"}</h2>
      <${Games} refresh=${created} types=${types} />
    </section>`;
  return html`
    <h1>Board games</h1>
    <p class="rules-links">
      How to play:
      ${(types || []).map((t, n) => html`${n ? ", " : " "}<a href="/rules/${t.name}">${t.title}</a>`)}
    </p>
    ${name ? html`
      <div class="lobby for-players">
        <div class="column">
          <section aria-labelledby="my-games">
            <h2 id="my-games">My games</h2>
            <${MyGames} refresh=${tables} />
          </section>
          <section aria-labelledby="open-tables">
            <h2 id="open-tables">Open tables</h2>
            <${OpenTables} tables=${tables} types=${types} name=${name} />
          </section>
          ${games}
        </div>
        <div class="column">
          <section aria-labelledby="new-table">
            <h2 id="new-table">New table</h2>
            ${types ? html`<${NewTable} types=${types} player=${name} />` : html`<p>Loading…</p>`}
          </section>
          ${guestGame}
        </div>
      </div>` : html`
      <p class="hint"><a href="/login">Log in</a> or <a href="/signup">sign up</a> to sit at open tables with other players, chat, and find your games again.</p>
      <div class="lobby">${guestGame}${games}</div>`}
  `;
}

function seatFor(type, n) {
  return { type: n === 0 ? "human" : "ai", name: "", level: type.levels.includes("normal") ? "normal" : type.levels[0] };
}

function NewGame({ types, onCreated }) {
  const [name, setName] = useState(types[0].name);
  const type = types.find((t) => t.name === name);
  const [seats, setSeats] = useState(() => [0, 1].slice(0, Math.max(type.seats.min, 2)).map((n) => seatFor(type, n)));
  const [options, setOptions] = useState({});
  const [seed, setSeed] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  function choose(next) {
    const kind = types.find((t) => t.name === next);
    setName(next);
    setOptions({});
    const count = Math.min(Math.max(seats.length, kind.seats.min), kind.seats.max);
    setSeats(Array.from({ length: count }, (_, n) => seats[n] ? { ...seats[n], level: kind.levels.includes(seats[n].level) ? seats[n].level : kind.levels[0] } : seatFor(kind, n)));
  }
  function change(n, field, value) {
    setSeats(seats.map((s, m) => (m === n ? { ...s, [field]: value } : s)));
  }
  async function submit(event) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    const body = {
      game: name,
      seats: seats.map((s) => (s.type === "ai" ? { type: "ai", level: s.level, ...(s.name ? { name: s.name } : {}) } : { type: "human", ...(s.name ? { name: s.name } : {}) })),
      options,
    };
    if (seed !== "") body.seed = Number(seed);
    try {
      onCreated(await api("/api/games", { method: "POST", body }));
    } catch (refused) {
      setError(refused.message);
    } finally {
      setBusy(false);
    }
  }

  return html`
    <form class="new-game" onSubmit=${submit}>
      <label>Game
        <select value=${name} onChange=${(e) => choose(e.target.value)}>
          ${types.map((t) => html`<option value=${t.name}>${t.title} (${t.seats.min}–${t.seats.max} players)</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Seats</legend>
        <ol class="seats">
          ${seats.map((s, n) => html`
            <li>
              <label>Seat ${n + 1}
                <select value=${s.type} onChange=${(e) => change(n, "type", e.target.value)}>
                  <option value="human">Person</option>
                  <option value="ai">AI</option>
                </select>
              </label>
              <label>Name
                <input value=${s.name} maxlength="40" placeholder=${s.type === "ai" ? `AI ${n + 1}` : `Player ${n + 1}`}
                  onInput=${(e) => change(n, "name", e.target.value)} />
              </label>
              ${s.type === "ai" && html`
                <label>Level
                  <select value=${s.level} onChange=${(e) => change(n, "level", e.target.value)}>
                    ${type.levels.map((l) => html`<option value=${l}>${l}</option>`)}
                  </select>
                </label>`}
            </li>`)}
        </ol>
        <div class="row">
          <button type="button" disabled=${seats.length >= type.seats.max}
            onClick=${() => setSeats([...seats, seatFor(type, 1)])}>Add a seat</button>
          <button type="button" disabled=${seats.length <= type.seats.min}
            onClick=${() => setSeats(seats.slice(0, -1))}>Remove the last seat</button>
        </div>
      </fieldset>
      <${OptionFields} type=${type} options=${options} setOptions=${setOptions} />
      <label>Seed (optional)
        <input type="number" min="0" step="1" value=${seed} onInput=${(e) => setSeed(e.target.value)} />
      </label>
      ${error && html`<p class="refusal" role="alert">${error}</p>`}
      <button class="primary" type="submit" disabled=${busy}>Create the game</button>
    </form>
  `;
}

function Created({ game }) {
  const people = game.seats.filter((s) => s.token);
  const [copied, setCopied] = useState(null);
  const link = (s) => `${location.origin}/play/${game.id}#t=${s.token}`;
  async function copy(s) {
    try {
      await navigator.clipboard.writeText(link(s));
      setCopied(s.seat);
    } catch {
      setCopied(-1);
    }
  }
  return html`
    <div class="created" role="status">
      <h3>Game created</h3>
      ${people.length > 0 && html`<p>Each person's link is their seat: send it to them only.</p>`}
      <ul>
        ${people.map((s) => html`
          <li>
            <span>Seat ${s.seat + 1}, ${s.name}:</span>
            <input readonly value=${link(s)} aria-label=${`Link of seat ${s.seat + 1}`} />
            <button type="button" onClick=${() => copy(s)}>Copy the link</button>
            <a class="button" href=${`/play/${game.id}#t=${s.token}`}>Play as seat ${s.seat + 1}</a>
            ${copied === s.seat && html`<span>Copied.</span>`}
          </li>`)}
      </ul>
      <p><a href=${`/watch/${game.id}`}>Watch this game</a></p>
    </div>
  `;
}

/** A game's title from the types the server hosts ("Crazymino"), its name until they are had. */
function titleOf(types, name) {
  const type = (types || []).find((t) => t.name === name);
  return type ? type.title : name;
}

function Games({ refresh, types }) {
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api(`/api/games?offset=${offset}&limit=${PAGE}`).then(setPage, (e) => setError(e.message));
  }, [offset, refresh]);
  if (error) return html`<p class="refusal" role="alert">${error}</p>`;
  if (!page) return html`<p>Loading…</p>`;
  const now = Date.now();
  return html`
    ${page.games.length === 0 ? html`<p>No game yet.</p>` : html`
      <table class="games">
        <caption class="visually-hidden">Games, newest first</caption>
        <thead><tr><th scope="col">Game</th><th scope="col">Players</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">See</th></tr></thead>
        <tbody>
          ${page.games.map((g) => {
            const title = titleOf(types, g.game);
            const who = g.seats.map((s) => s.name).join(", ");
            return html`
            <tr>
              <td>${title}</td>
              <td>${g.seats.map((s) => s.name).join(", ")}</td>
              <td>${g.status === "over" ? "finished" : "running"}</td>
              <td>${ago(g.created, now)}</td>
              <td class="actions">
                <a href=${`/watch/${g.id}`} aria-label=${`Watch ${title}: ${who}, ${ago(g.created, now)}`}>Watch</a>
                <a href=${`/replay/${g.id}`} aria-label=${`Replay ${title}: ${who}, ${ago(g.created, now)}`}>Replay</a>
              </td>
            </tr>`;
          })}
        </tbody>
      </table>`}
    <nav class="row" aria-label="Pages of games">
      <button type="button" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>Newer</button>
      <span>${page.total ? `${offset + 1}–${Math.min(offset + PAGE, page.total)} of ${page.total}` : ""}</span>
      <button type="button" disabled=${offset + PAGE >= page.total} onClick=${() => setOffset(offset + PAGE)}>Older</button>
    </nav>
  `;
}
