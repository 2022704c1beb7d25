// A table being formed: who sits, what is free or kept, the player's choices, live. When its
// game starts every seated player moves on to the game (`/play/{game_id}`): the session acts.
import { html, useState, useEffect, useRef } from "./lib.js";
import { api, followTables } from "./api.js";
import { usePlayer } from "./session.js";
import { seatShown, seatedAt, isCreator, whoSits, sitting } from "./seats.js";
import { TableFacts, TableActions, Invitation } from "./tables.js";
import { Refusal, Said } from "./notice.js";

const STATUS = { forming: "being formed", starting: "starting", started: "started", closed: "closed" };

function useTable(tableId) {
  const [table, setTable] = useState(null);
  const [failure, setFailure] = useState(null);
  const [status, setStatus] = useState("connecting");
  useEffect(() => {
    const load = () =>
      api(`/api/tables/${encodeURIComponent(tableId)}`).then(setTable, (refused) => setFailure(refused.message));
    load();
    return followTables({
      onStatus: (next) => {
        setStatus(next);
        if (next === "live") load();
      },
      // The list holds the tables being formed: one that left it has started or closed.
      onTables: (tables) => {
        const found = tables.find((t) => t.id === tableId);
        if (found) setTable(found);
        else load();
      },
    });
  }, [tableId]);
  return [table, setTable, failure, status];
}

export function TablePage({ tableId }) {
  const name = usePlayer();
  const [table, setTable, failure, status] = useTable(tableId);
  const [refusal, setRefusal] = useState(null);
  const [said, setSaid] = useState(null);
  const [kinds, setKinds] = useState(null);
  useEffect(() => {
    api("/api/games/types").then(setKinds, () => {});
  }, []);
  // A game that starts while the player is on the page takes its place in the history (Back
  // from the game goes where they were before); a page opened on a game already started (Back,
  // a link) only offers it: it never moves the player forward by itself.
  const formingHere = useRef(false);
  useEffect(() => {
    if (!table) return;
    if (!table.game_id) formingHere.current = true;
    else if (formingHere.current && name && seatedAt(table, name)) location.replace(`/play/${table.game_id}`);
  }, [table && table.game_id, name]);

  if (failure) return html`<h1>Table not found</h1><p class="refusal" role="alert">${failure}</p><p><a href="/">Back to the lobby</a></p>`;
  if (!table) return html`<p>Loading the table…</p>`;
  const type = kinds && kinds.find((k) => k.name === table.game);
  const seated = name && seatedAt(table, name);
  function done(answer, action) {
    if (answer && answer.game_id) {
      location.replace(`/play/${answer.game_id}`);
      return;
    }
    if (answer && answer.id) setTable(answer);
    const words = { join: "You sit at the table.", leave: "You left the table.", decline: "You declined the seat." };
    setSaid(words[action] || null);
  }
  return html`
    <div class="forming" data-status=${table.status}>
      <div class="table-head">
        <h1>${table.title} <span class="as">(${STATUS[table.status] || table.status})</span></h1>
        <p class=${`connection ${status}`} role="status"><span class="dot" aria-hidden="true"></span>${status === "live" ? "Live" : status === "reconnecting" ? "Reconnecting…" : "Connecting…"}</p>
        <p class="links"><a href=${`/rules/${table.game}`}>How to play</a> <a href="/">Lobby</a></p>
      </div>
      <${Invitation} table=${table} name=${name} />
      ${table.rematch_of && html`<p class="rematch">A rematch of <a href=${`/play/${table.rematch_of}`}>the last game</a>: the same players, seats kept for each.</p>`}
      <${TableFacts} table=${table} type=${type} />
      <section aria-labelledby="seats-title">
        <h2 id="seats-title">Seats</h2>
        <ol class="table-seats">
          ${table.seats.map((s) => html`<li key=${s.seat}>${seatShown(s)}${sitting(s) && isCreator(table, s.name) ? " (opened the table)" : ""}</li>`)}
        </ol>
        <p class="sitting">${whoSits(table)}</p>
        ${table.status === "forming" && table.closes_at && html`<p class="hint">If it does not start, the table closes ${until(table.closes_at)}.</p>`}
      </section>
      ${!name && table.status === "forming" && html`<p><a href=${`/login?next=/tables/${tableId}`}>Log in</a> to sit at this table.</p>`}
      <div class="row"><${TableActions} table=${table} name=${name} onDone=${done} onRefused=${setRefusal} /></div>
      <${Refusal} text=${refusal} />
      <${Said} text=${said} />
      ${table.status === "started" && table.game_id && html`<p>${seated
        ? html`<a class="button primary" href=${`/play/${table.game_id}`}>Go to the game</a>`
        : html`<a href=${`/watch/${table.game_id}`}>Watch the game</a>`}</p>`}
      ${table.status === "starting" && html`<p>Its game is being made: the seats can no longer change.</p>`}
      ${table.status === "closed" && html`<p>This table is closed. <a href="/">Back to the lobby</a></p>`}
    </div>
  `;
}

function until(ms) {
  const minutes = Math.max(0, Math.round((ms - Date.now()) / 60000));
  if (minutes < 1) return "in less than a minute";
  if (minutes < 120) return `in ${minutes} min`;
  return `in ${Math.round(minutes / 60)} h`;
}
