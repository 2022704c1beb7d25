// Every table: players and scores, the log in words, the chat, refusals, the connection,
// the end and a rematch. The game's own part (its board, hand and controls) comes from its
// module. A seat acts with its token (a seat link), or with the player's session (no token).
import { html, useState, useEffect, useRef, useCallback, ago } from "./lib.js";
import { api, follow, newKey } from "./api.js";
import { GAMES } from "./games.js";
import { Ending, points, winnerWords } from "./ending.js";
import { LiveText, SoundToggle, useAnnouncer, useLiveText, useSound } from "./announce.js";
import { SeatBadge, seatClass, sinceMine } from "./moves.js";
import { Chat, UnreadChat, useChat } from "./chat.js";
import { seedWords } from "./options.js";
import { usePlayer } from "./session.js";
import { RulesDialog } from "./rules.js";
import { Seating, awayOf, lostWords, timedOutSince } from "./seating.js";

export function Table({ gameId, token }) {
  const [view, setView] = useState(null);
  const [log, setLog] = useState([]);
  const [status, setStatus] = useState("connecting");
  const [refusal, setRefusal] = useState(null);
  const [failure, setFailure] = useState(null);
  const [busy, setBusy] = useState(false);
  const [gone, setGone] = useState(false);
  const [endedHere, setEndedHere] = useState(false);
  const [sound, setSound] = useSound();
  const [rulesAsked, setRulesAsked] = useState(0);
  const [liveText, say] = useLiveText();
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
      // Once the table is shown, a view that cannot be had now (the server restarting, a
      // request lost) is asked for again in a second, and when the stream is back; only the
      // first load fails the page.
      if (!shown.current) setFailure(refused.message);
      else if (refused.status !== 404) {
        clearTimeout(reload.current);
        reload.current = setTimeout(load, 1000);
      }
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
        if (stopped) return; // left (or begun again) while the view loaded: no second stream
        stream = follow(gameId, {
          token,
          after: first.version,
          onStatus: (next) => {
            setStatus(next);
            if (next === "live") load(); // what changed while it was away
            if (next === "reconnecting") {
              // A server that came back without this game (an embedded one restarted, or the
              // game deleted): say so, rather than reconnecting forever.
              api(`/api/games/${gameId}`, { token }).catch((refused) => {
                if (refused.status === 404) {
                  setGone(true);
                  if (stream) stream.close();
                }
              });
            }
          },
          onChat: chat.add,
          chatAfter: chat.after,
          onEntry: (entry) => {
            // An entry the log has already (its version or an older one) is not shown twice.
            setLog((entries) => (entries.length && entries[entries.length - 1].version >= entry.version
              ? entries : [...entries, entry]));
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

  const game = view ? GAMES[view.game] : null;
  useAnnouncer({
    view, log, title: game ? game.title : "Game", simultaneous: !!(game && game.simultaneous), sound, say,
    ending: view && view.status === "over" ? `The game is over: ${winnerWords(view)}` : "",
  });
  // A game that ends while the page is open brings its end into view, and the focus with it.
  const wasActive = useRef(false);
  useEffect(() => {
    if (!view) return;
    if (view.status === "over" && wasActive.current) setEndedHere(true);
    wasActive.current = view.status !== "over";
  }, [view && view.status]);

  if (gone) return html`<${Gone} />`;
  if (failure) return html`<h1>This game cannot be shown</h1><p class="refusal" role="alert">${failure}</p><p><a href="/">Back to the lobby</a></p>`;
  if (!view) return html`<p>Loading the game…</p>`;
  const you = view.seat;
  const over = view.status === "over";
  const seed = seedWords(view);
  return html`
    <div class="table" data-version=${view.version}>
      <div class="table-head">
        <h1>${game ? game.title : view.game}${you !== null ? html` <span class="as">as ${view.seats[you].name}</span>` : html` <span class="as">(watching)</span>`}</h1>
        <${Connection} status=${status} />
        <${UnreadChat} chat=${chat} />
        ${you !== null && !over && html`<${SoundToggle} on=${sound} set=${setSound} />`}
        ${seed && html`<p class="seed">${seed}</p>`}
        <p class="links">
          <a href=${`/rules/${view.game}`} onClick=${(e) => {
            // Over the table, and closed back to it; a new tab or window still opens the page.
            if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
            e.preventDefault();
            setRulesAsked((asked) => asked + 1);
          }}>How to play</a>
          <a href=${`/replay/${gameId}${token ? `#t=${token}` : ""}`}>Replay</a>
          <a href="/">Lobby</a>
        </p>
        ${view.table && !over && html`<${Seating} view=${view} log=${log} send=${send} busy=${busy} say=${say} />`}
      </div>
      <${RulesDialog} game=${view.game} asked=${rulesAsked} />
      <${LiveText} text=${liveText} />
      <${Players} view=${view} game=${game} log=${log} />
      ${refusal && html`<p class="refusal" role="alert">${refusal}</p>`}
      ${over && html`<${Ending} view=${view} game=${game} gameId=${gameId} token=${token} name=${name} focus=${endedHere} />`}
      ${game ? html`<${game.Board} view=${view} send=${send} busy=${busy} log=${log} />` : html`<p>This client cannot draw ${view.game}.</p>`}
      <div class="table-foot">
        <${Log} entries=${log} />
        <${Chat} chat=${chat} gameId=${gameId} token=${token} view=${view} />
      </div>
    </div>
  `;
}

function Gone() {
  return html`<h1>This game is no longer here</h1>
    <p role="alert">The server no longer has this game: it may have been restarted without keeping its games, or the game was deleted.</p>
    <p><a href="/">Back to the lobby</a></p>`;
}

function Connection({ status }) {
  const words = { live: "Live", reconnecting: "Reconnecting…", connecting: "Connecting…" }[status];
  return html`<p class=${`connection ${status}`} role="status" aria-live="polite">
    <span class="dot" aria-hidden="true"></span>${words}</p>`;
}

const UNSAID = new Set(["clock_set", "game_started", "round_started", "round_ended", "game_ended"]);

/** What each seat did since your own last move (for a watcher: its last move), in words. */
function lastMoves(view, log) {
  const since = sinceMine(log, view.seat);
  const found = new Map();
  for (const entry of since) {
    if (entry.by === null || entry.by === undefined || UNSAID.has(entry.event.type)) continue;
    if (!found.has(entry.by)) found.set(entry.by, []);
    found.get(entry.by).push(entry.text);
  }
  if (view.seat === null) {
    // A watcher has no move of their own: each seat's last entry.
    for (const [seat, texts] of found) found.set(seat, texts.slice(-1));
  }
  return found;
}

function Players({ view, game, log }) {
  const away = awayOf(view);
  const moves = lastMoves(view, log);
  const late = timedOutSince(view, log);
  return html`
    <section class="players" aria-label="Players">
      <ul>
        ${view.seats.map((s) => {
          const acting = view.to_act.includes(s.seat);
          const gone = away.get(s.seat);
          return html`
            <li class=${`${acting ? "acting " : ""}${seatClass(s.seat)}`}>
              <span class="head"><${SeatBadge} seat=${s.seat} /> <span class="name">${s.name}${s.type === "ai" ? html` <small>(AI, ${s.level})</small>` : ""}${s.seat === view.seat ? html` <small>(you)</small>` : ""}${gone ? html` <small class="away">(${lostWords(gone)})</small>` : ""}
                ${late.has(s.seat) && html` <strong class="timed-out">${s.seat === view.seat ? "Your" : `${s.name}'s`} time ran out</strong>`}
                <span class="score">${points(view.scores[s.seat])}</span>
                ${acting && html` <span class="turn">${view.to_act.length > 1 ? "playing" : "to play"}</span>`}</span></span>
              ${game && game.seatNote && html`<span class="note">${game.seatNote(view, s.seat)}</span>`}
              ${moves.has(s.seat) && s.seat !== view.seat && html`<span class="last-move" title=${moves.get(s.seat).join(" ")}>
                <span class="visually-hidden">Last move: </span>${moves.get(s.seat).join(" ")}</span>`}
            </li>`;
        })}
      </ul>
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
