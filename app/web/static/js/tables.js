// Tables being formed, for a logged-in player: the open tables, live, each with what the
// player may do at it; and the form that opens a new one.
import { html, useState, useEffect, ago } from "./lib.js";
import { api, followTables } from "./api.js";
import { OptionFields, optionWords, seedWords } from "./options.js";
import { whoSits, choices, act, waiting } from "./seats.js";
import { Refusal } from "./notice.js";
import { RatingRange, rangeWords } from "./rating-range.js";

/** The tables' facts in words: the options, rated or not, the ratings it is for, how it
 * starts, a chosen seed. */
export function TableFacts({ table, type }) {
  const seed = seedWords(table);
  const range = rangeWords(table);
  return html`
    <p class="facts">${optionWords(type, table.options)}; ${table.rated ? "rated" : table.casual && !seed ? "casual" : "not rated"};${range ? ` ${range};` : ""}
      ${table.start_when_full ? " starts when full" : ` ${table.creator} starts it`}</p>
    ${seed && html`<p class="seed">${seed}</p>`}`;
}

/** "Ann invites you to a game of Crazymino.": said to the player a seat is kept for. */
export function Invitation({ table, name }) {
  const kept = table.status === "forming" && name && table.seats.some((s) => waiting(s) && s.reserved.toLowerCase() === name.toLowerCase());
  return kept ? html`<p class="invitation">${table.creator} invites you to a game of ${table.title}.</p>` : null;
}

/** The buttons of what `name` may do at `table`; `onDone(answer, action)` after each. */
export function TableActions({ table, name, onDone, onRefused, compact = false }) {
  const [busy, setBusy] = useState(false);
  const may = choices(table, name);
  const what = compact ? ` ${table.title}` : "";
  async function run(action, body) {
    setBusy(true);
    onRefused(null);
    try {
      onDone(await act(table, action, body), action);
    } catch (refused) {
      onRefused(refused.message);
    } finally {
      setBusy(false);
    }
  }
  const mine = table.seats.find((s) => waiting(s) && s.reserved.toLowerCase() === (name || "").toLowerCase());
  return html`<span class="actions">
    ${may.join && html`<button type="button" class="primary" disabled=${busy} aria-label=${`Join${what}`} onClick=${() => run("join", {})}>Join</button>`}
    ${may.accept && html`<button type="button" class="primary" disabled=${busy} aria-label=${`Accept${what}`} onClick=${() => run("join", { seat: mine.seat })}>Accept</button>`}
    ${may.accept && html`<button type="button" disabled=${busy} aria-label=${`Decline${what}`} onClick=${() => run("decline")}>Decline</button>`}
    ${may.start && html`<button type="button" class="primary" disabled=${busy} aria-label=${`Start${what}`} onClick=${() => run("start")}>Start</button>`}
    ${may.leave && html`<button type="button" disabled=${busy} aria-label=${`Leave${what}`} onClick=${() => run("leave")}>Leave</button>`}
  </span>`;
}

/** Where a table's action leads: a started game, or the table's page. */
export function goOn(answer, action) {
  if (answer && answer.game_id) location.assign(`/play/${answer.game_id}`);
  else if (action !== "leave" && action !== "decline") location.assign(`/tables/${answer.id}`);
}

export function OpenTables({ tables, types, name }) {
  const [refusal, setRefusal] = useState(null);
  if (tables === null) return html`<p>Loading…</p>`;
  const forming = tables.filter((t) => t.status === "forming");
  const now = Date.now();
  return html`
    <${Refusal} text=${refusal} />
    ${forming.length === 0 ? html`<p>No open table: open one.</p>` : html`
      <ul class="open-tables">
        ${forming.map((t) => html`
          <li key=${t.id}>
            <h3><a href=${`/tables/${t.id}`}>${t.title}</a> <small>by ${t.creator}, ${ago(t.created, now)}</small></h3>
            <${Invitation} table=${t} name=${name} />
            <${TableFacts} table=${t} type=${types && types.find((k) => k.name === t.game)} />
            <p class="sitting">${whoSits(t)}</p>
            <${TableActions} table=${t} name=${name} compact=${true} onDone=${goOn} onRefused=${setRefusal} />
          </li>`)}
      </ul>`}
  `;
}

function seatFor(type) {
  return { type: "open", name: "", level: type.levels.includes("normal") ? "normal" : type.levels[0] };
}

export function NewTable({ types, player }) {
  const [name, setName] = useState(types[0].name);
  const type = types.find((t) => t.name === name);
  const [seats, setSeats] = useState(() => Array.from({ length: Math.max(type.seats.min, 2) }, () => seatFor(type)));
  const [options, setOptions] = useState({});
  const [sit, setSit] = useState(true);
  const [full, setFull] = useState(false);
  const [rated, setRated] = useState(false);
  const [seed, setSeed] = useState("");
  const [range, setRange] = useState({ min: "", max: "" });
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  function choose(next) {
    const kind = types.find((t) => t.name === next);
    setName(next);
    setOptions({});
    const count = Math.min(Math.max(seats.length, kind.seats.min), kind.seats.max);
    setSeats(Array.from({ length: count }, (_, n) => (seats[n] ? { ...seats[n], level: kind.levels.includes(seats[n].level) ? seats[n].level : kind.levels[0] } : seatFor(kind))));
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
      seats: seats.map((s, n) => {
        if (sit && n === 0) return { type: "open" };
        if (s.type === "ai") return { type: "ai", level: s.level };
        if (s.type === "player") return { type: "player", name: s.name.trim() };
        return { type: "open" };
      }),
      options,
      sit,
      start_when_full: full,
      rated,
    };
    if (seed !== "") body.seed = Number(seed);
    if (range.min !== "") body.rating_min = Number(range.min);
    if (range.max !== "") body.rating_max = Number(range.max);
    try {
      const table = await api("/api/tables", { method: "POST", body });
      location.assign(`/tables/${table.id}`);
    } catch (refused) {
      setError(refused.message);
      setBusy(false);
    }
  }

  return html`
    <form class="new-table" onSubmit=${submit}>
      <label>Game
        <select value=${name} onChange=${(e) => choose(e.target.value)}>
          ${types.map((t) => html`<option value=${t.name}>${t.title} (${t.seats.min}–${t.seats.max} players)</option>`)}
        </select>
      </label>
      <label class="check"><input type="checkbox" checked=${sit} onChange=${(e) => setSit(e.target.checked)} /> Sit at the table myself (seat 1)</label>
      <fieldset>
        <legend>Seats</legend>
        <ol class="seats">
          ${seats.map((s, n) => sit && n === 0 ? html`<li>Seat 1: you</li>` : html`
            <li>
              <label>Seat ${n + 1}
                <select value=${s.type} onChange=${(e) => change(n, "type", e.target.value)}>
                  <option value="open">Open to anyone</option>
                  <option value="ai">AI</option>
                  <option value="player">Kept for a player</option>
                </select>
              </label>
              ${s.type === "player" && html`
                <label>Player's name
                  <input value=${s.name} required maxlength="20" onInput=${(e) => change(n, "name", e.target.value)} />
                </label>`}
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
            onClick=${() => setSeats([...seats, seatFor(type)])}>Add a seat</button>
          <button type="button" disabled=${seats.length <= type.seats.min}
            onClick=${() => setSeats(seats.slice(0, -1))}>Remove the last seat</button>
        </div>
      </fieldset>
      <label class="check"><input type="checkbox" checked=${full} onChange=${(e) => setFull(e.target.checked)} /> Start when full</label>
      <label class="check"><input type="checkbox" checked=${rated} onChange=${(e) => setRated(e.target.checked)} />
        Rated <small>(unless casual: the table says so)</small></label>
      <${RatingRange} range=${range} onChange=${setRange} game=${type} player=${player} />
      <details class="more-options">
        <summary>More options</summary>
        <${OptionFields} type=${type} options=${options} setOptions=${setOptions} />
        <label>Seed (optional: the game is then casual)
          <input type="number" min="0" step="1" value=${seed} onInput=${(e) => setSeed(e.target.value)} />
        </label>
      </details>
      <${Refusal} text=${error} />
      <button class="primary" type="submit" disabled=${busy}>Open the table</button>
    </form>
  `;
}

/** The tables being formed, live: `null` until the first list. */
export function useTables(name) {
  const [tables, setTables] = useState(null);
  useEffect(() => {
    if (!name) return undefined;
    const load = () => api("/api/tables").then((answer) => setTables(answer.tables), () => {});
    return followTables({
      onTables: setTables,
      onStatus: (status) => status === "live" && load(),
    });
  }, [name]);
  return tables;
}
