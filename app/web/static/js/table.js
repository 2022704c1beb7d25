// Every table: players and scores, the log in words, the chat, refusals, the connection,
// the end and a rematch. The game's own part (its board, hand and controls) comes from its
// module. A seat acts with its token (a seat link), or with the player's session (no token).
import { html, useState, useEffect, useRef, useCallback, ago } from "./lib.js";
import { api, follow, followTables, newKey } from "./api.js";
import { ScoreChart } from "./chart.js";
import { GAMES } from "./games.js";
import { Chat, useChat } from "./chat.js";
import { seedWords } from "./options.js";
import { usePlayer } from "./session.js";

export function Table({ gameId, token }) {
  const [view, setView] = useState(null);
  const [log, setLog] = useState([]);
  const [status, setStatus] = useState("connecting");
  const [refusal, setRefusal] = useState(null);
  const [failure, setFailure] = useState(null);
  const [busy, setBusy] = useState(false);
  const reload = useRef(null);
  const shown = useRef(false);
  const name = usePlayer();
  const chat = useChat(view ? view.seat : null);

  const load = useCallback(async () => {
    try {
      const next = await api(`/api/games/${gameId}${token || name ? "?hints=true" : ""}`, { token });
      // Answers may arrive out of order: an older view never replaces a newer one.
      setView((old) => (old && old.version > next.version ? old : next));
      chat.begin(next.now);
      shown.current = true;
    } catch (refused) {
      // Once the table is shown, a view that cannot be had now (the server restarting) is
      // had again when the stream is back; only the first load fails the page.
      if (!shown.current) setFailure(refused.message);
    }
  }, [gameId, token, name, chat.begin]);

  useEffect(() => {
    let stream = null;
    let stopped = false;
    (async () => {
      try {
        const first = await api(`/api/games/${gameId}/events`, { token });
        if (stopped) return;
        setLog(first.events);
        await load();
        stream = follow(gameId, {
          token,
          after: first.version,
          onStatus: (next) => {
            setStatus(next);
            if (next === "live") load(); // what changed while it was away
          },
          onChat: chat.add,
          chatAfter: chat.after,
          onEntry: (entry) => {
            setLog((entries) => [...entries, entry]);
            clearTimeout(reload.current);
            reload.current = setTimeout(load, 30);
          },
        });
      } catch (refused) {
        setFailure(refused.message);
      }
    })();
    return () => {
      stopped = true;
      if (stream) stream.close();
      clearTimeout(reload.current);
    };
  }, [gameId, token, load, chat.add, chat.after]);

  const send = useCallback(
    async (command) => {
      if (!view) return false;
      setBusy(true);
      setRefusal(null);
      try {
        // The version the command was chosen at: the server refuses it as stale only when
        // what it depends on moved (any move in a turn-based game; where seats act at once,
        // only this seat's own moves or the round's), docs/api.md.
        const body = { ...command, expected_version: view.version };
        await api(`/api/games/${gameId}/commands`, { method: "POST", body, token, key: newKey() });
        await load();
        return true;
      } catch (refused) {
        setRefusal(refused.message);
        if (refused.code === "stale_version") await load();
        return false;
      } finally {
        setBusy(false);
      }
    },
    [view, gameId, token, load],
  );

  if (failure) return html`<p class="refusal" role="alert">${failure}</p><p><a href="/">Back to the lobby</a></p>`;
  if (!view) return html`<p>Loading the game…</p>`;
  const game = GAMES[view.game];
  const you = view.seat;
  const over = view.status === "over";
  const seed = seedWords(view);
  return html`
    <div class="table" data-version=${view.version}>
      <div class="table-head">
        <h1>${game ? game.title : view.game}${you !== null ? html` <span class="as">as ${view.seats[you].name}</span>` : html` <span class="as">(watching)</span>`}</h1>
        <${Connection} status=${status} />
        <p class="links">
          <a href=${`/rules/${view.game}`}>How to play</a>
          <a href=${`/replay/${gameId}${token ? `#t=${token}` : ""}`}>Replay</a>
          <a href="/">Lobby</a>
        </p>
      </div>
      ${seed && html`<p class="seed">${seed}</p>`}
      <${Players} view=${view} game=${game} />
      ${view.table && !over && html`<${Seating} view=${view} send=${send} busy=${busy} />`}
      ${refusal && html`<p class="refusal" role="alert">${refusal}</p>`}
      ${over && html`<${Ending} view=${view} game=${game} gameId=${gameId} token=${token} name=${name} />`}
      ${game ? html`<${game.Board} view=${view} send=${send} busy=${busy} log=${log} />` : html`<p>This client cannot draw ${view.game}.</p>`}
      <div class="table-foot">
        <${Log} entries=${log} />
        <${Chat} chat=${chat} gameId=${gameId} token=${token} view=${view} />
      </div>
    </div>
  `;
}

function Connection({ status }) {
  const words = { live: "Live", reconnecting: "Reconnecting…", connecting: "Connecting…" }[status];
  return html`<p class=${`connection ${status}`} role="status" aria-live="polite">
    <span class="dot" aria-hidden="true"></span>${words}</p>`;
}

// Who has left the table, and the AI level playing for them meanwhile, by seat.
function awayOf(view) {
  return new Map(((view.table && view.table.away) || []).map((a) => [a.seat, a.level]));
}

function Players({ view, game }) {
  const away = awayOf(view);
  return html`
    <section class="players" aria-label="Players">
      <ul>
        ${view.seats.map((s) => {
          const acting = view.to_act.includes(s.seat);
          const gone = away.get(s.seat);
          return html`
            <li class=${acting ? "acting" : ""}>
              <span class="name">${s.name}${s.type === "ai" ? html` <small>(AI, ${s.level})</small>` : ""}${s.seat === view.seat ? html` <small>(you)</small>` : ""}${gone ? html` <small class="away">(left: the ${gone} AI plays)</small>` : ""}</span>
              <span class="score">${view.scores[s.seat]} points</span>
              ${game && game.seatNote && html`<span class="note">${game.seatNote(view, s.seat)}</span>`}
              ${acting && html`<span class="turn">${view.to_act.length > 1 ? "playing" : "to play"}</span>`}
            </li>`;
        })}
      </ul>
    </section>
  `;
}

// The table around the game: the turn clock counting down, leaving and taking a seat back.
function Seating({ view, send, busy }) {
  const table = view.table;
  const you = view.seat;
  const mine = you !== null && view.seats[you].type === "human";
  const level = awayOf(view).get(you);
  const [asking, setAsking] = useState(false);
  return html`
    <section class="seating" aria-label="Table">
      ${table.clock && html`<${TurnClock} view=${view} />`}
      ${mine && level && html`
        <p class="away-note">You left the table: the ${level} AI plays your seat.
          <button onClick=${() => send({ type: "rejoin" })} disabled=${busy}>Take my seat back</button></p>`}
      ${mine && !level && !asking && html`
        <button class="leave" onClick=${() => setAsking(true)} disabled=${busy}>Leave table</button>`}
      ${mine && !level && asking && html`
        <p class="confirm" role="group" aria-label="Leave the table?">Leave? The ${table.takeover_level} AI plays your seat until you take it back.
          <button onClick=${async () => { setAsking(false); await send({ type: "leave" }); }} disabled=${busy}>Yes, leave</button>
          <button onClick=${() => setAsking(false)} autofocus>Stay</button></p>`}
    </section>
  `;
}

function TurnClock({ view }) {
  const { seat, due } = view.table.clock;
  // The server's time runs `skew` ms ahead of this browser's.
  const skew = useRef(0);
  const [tick, setTick] = useState(Date.now());
  useEffect(() => {
    skew.current = view.now - Date.now();
  }, [view.now]);
  useEffect(() => {
    const timer = setInterval(() => setTick(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.ceil((due - tick - skew.current) / 1000));
  const whose = seat === view.seat ? "Your" : `${view.seats[seat].name}'s`;
  const strikes = view.table.strikes[seat] || 0;
  return html`
    <p class=${`turn-clock${left <= 10 ? " hurry" : ""}`} role="timer" aria-label=${`${whose} turn: ${left} seconds left`}>
      ${whose} turn: <strong>${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}</strong> left${left <= 10 ? " (hurry!)" : ""}
      ${strikes > 0 && html` <small>(timed out ${strikes} in a row; ${view.table.timeouts_to_ai} hand the seat to the AI)</small>`}
    </p>`;
}

function Ending({ view, game, gameId, token, name }) {
  const [timeline, setTimeline] = useState(null);
  useEffect(() => {
    api(`/api/games/${gameId}/timeline`, { token }).then(setTimeline);
  }, [gameId, view.version]);
  return html`
    <section class="ending" aria-labelledby="final">
      <h2 id="final">The game is over</h2>
      <ol class="ranking">
        ${view.standings.map((s) => html`
          <li value=${s.rank}>
            <strong>${view.seats[s.seat].name}</strong>: ${s.score} ${Math.abs(s.score) === 1 ? "point" : "points"}
            ${game && game.scoreLine && html`<span class="line"> (${game.scoreLine(view, s.seat)})</span>`}
          </li>`)}
      </ol>
      ${name && view.seat !== null && html`<${Rematch} gameId=${gameId} />`}
      ${timeline && html`<${ScoreChart} timeline=${timeline} />`}
    </section>
  `;
}

function Log({ entries }) {
  const end = useRef(null);
  useEffect(() => {
    if (end.current) end.current.scrollTop = end.current.scrollHeight;
  }, [entries.length]);
  const now = Date.now();
  return html`
    <section class="log" aria-labelledby="log-title">
      <h2 id="log-title">Game log</h2>
      <ol ref=${end} tabindex="0" aria-label="Every event, oldest first">
        ${entries.filter((e) => e.event.type !== "clock_set").map((e) => html`<li key=${e.version}><span class="when">${ago(e.at, now)}</span> ${e.text}</li>`)}
      </ol>
    </section>
  `;
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
