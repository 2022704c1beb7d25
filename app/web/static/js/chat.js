// The table's chat: what the players said, each message with its seat's name (as text,
// never as markup), a form for the seated players, and a "Mute" per name that hides that
// name's messages on this screen (kept in this browser's localStorage).
import { html, useState, useEffect, useRef, useCallback, ago } from "./lib.js";
import { api } from "./api.js";

const MUTED = "muted";
const LENGTH = 300;

function mutedNames() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED) || "[]"));
  } catch {
    return new Set();
  }
}

/**
 * The chat of a game, as the game's stream brings it (`add`): the messages so far at each
 * connection (after `after()`, the last one had), then each new one. Only the others'
 * messages said since the page opened (`since`, server time) are announced.
 */
export function useChat(seat) {
  const [messages, setMessages] = useState([]);
  const [heard, setHeard] = useState(null);
  const last = useRef(0);
  const since = useRef(null);
  const mine = useRef(seat);
  mine.current = seat;

  const add = useCallback((message) => {
    if (message.id <= last.current) return;
    last.current = message.id;
    setMessages((old) => [...old, message]);
    if (message.seat !== mine.current && since.current !== null && message.at > since.current) setHeard(message);
  }, []);
  const after = useCallback(() => last.current, []);
  const begin = useCallback((now) => {
    if (since.current === null) since.current = now;
  }, []);
  return { messages, heard, add, after, begin };
}

export function Chat({ chat, gameId, token, view }) {
  const [muted, setMuted] = useState(mutedNames);
  const [text, setText] = useState("");
  const [refusal, setRefusal] = useState(null);
  const [busy, setBusy] = useState(false);
  const list = useRef(null);
  const you = view.seat;
  const shown = chat.messages.filter((m) => !muted.has(m.name));
  const hidden = chat.messages.length - shown.length;
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [shown.length]);

  function toggle(name) {
    const next = new Set(muted);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    localStorage.setItem(MUTED, JSON.stringify([...next]));
    setMuted(next);
  }
  async function send(event) {
    event.preventDefault();
    const said = text.trim();
    if (!said) return;
    setBusy(true);
    setRefusal(null);
    try {
      // The message comes back on the game's stream, in its place among the others'.
      await api(`/api/games/${gameId}/chat`, { method: "POST", body: { text: said }, token });
      setText("");
    } catch (refused) {
      setRefusal(refused.message);
    } finally {
      setBusy(false);
    }
  }
  const others = view.seats.filter((s) => s.type !== "ai" && s.seat !== you);
  const heard = chat.heard && !muted.has(chat.heard.name) ? `${chat.heard.name} says: ${chat.heard.text}` : "";
  const now = Date.now();
  return html`
    <section class="chat" aria-labelledby="chat-title">
      <h2 id="chat-title">Chat</h2>
      <p class="visually-hidden" aria-live="polite">${heard}</p>
      ${shown.length === 0 ? html`<p class="hint">${hidden ? "" : "Nothing said yet."}</p>` : html`
        <ol ref=${list} tabindex="0" aria-label="What was said, oldest first">
          ${shown.map((m) => html`<li key=${m.id}><strong class="speaker">${m.name}</strong>: <span class="words">${m.text}</span> <span class="when">${ago(m.at, now)}</span></li>`)}
        </ol>`}
      ${hidden > 0 && html`<p class="hint">${hidden} ${hidden === 1 ? "message" : "messages"} of muted players hidden.</p>`}
      ${others.length > 0 && html`
        <p class="mutes">${others.map((s) => {
          const off = muted.has(s.name);
          return html`<button type="button" class="mute" aria-pressed=${off ? "true" : "false"} onClick=${() => toggle(s.name)}>
            <span aria-hidden="true">${off ? "☒ " : "☐ "}</span>Mute ${s.name}</button>`;
        })}</p>`}
      ${you !== null && html`
        <form class="say" onSubmit=${send}>
          <label>Message
            <input value=${text} maxlength=${LENGTH} onInput=${(e) => setText(e.target.value)} autocomplete="off" />
          </label>
          <button type="submit" disabled=${busy || !text.trim()}>Send</button>
        </form>`}
      ${refusal && html`<p class="refusal" role="alert">${refusal}</p>`}
    </section>
  `;
}
