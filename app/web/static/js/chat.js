// The table's chat: what the players said, each message with its seat's name (as text,
// never as markup), a form for the seated players, and a "Mute" per name that hides that
// name's messages on this screen (kept in this browser's localStorage). What the others said
// since the page opened is unread until the chat is seen (in view, or focused, in a tab in
// front): the count shows at the top of the table and in the tab's title.
import { html, useState, useEffect, useRef, useCallback, ago } from "./lib.js";
import { api } from "./api.js";
import { markTitle } from "./title.js";

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
  const [muted, setMuted] = useState(mutedNames);
  const [seen, setSeen] = useState(0); // the last message's id when the chat was last seen
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
  const read = useCallback(() => setSeen(last.current), []);
  const toggle = useCallback((name) => setMuted((old) => {
    const next = new Set(old);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    localStorage.setItem(MUTED, JSON.stringify([...next]));
    return next;
  }), []);
  const unread = messages.filter((m) => m.id > seen && m.seat !== seat && !muted.has(m.name)
    && since.current !== null && m.at > since.current).length;
  useEffect(() => {
    markTitle("chat", unread ? `(${unreadWords(unread)})` : "");
  }, [unread]);
  useEffect(() => () => markTitle("chat", ""), []);
  return { messages, heard, add, after, begin, muted, toggle, unread, read };
}

const unreadWords = (n) => `${n} ${n === 1 ? "message" : "messages"}`;

/** The chat said since it was last seen, near the top of the table: a button that brings the
 * chat into view and the focus into it. Said politely to a screen reader as it grows. */
export function UnreadChat({ chat }) {
  const n = chat.unread;
  function open() {
    const chatList = document.querySelector(".chat ol") || document.querySelector(".chat input");
    const section = document.querySelector(".chat");
    if (section) section.scrollIntoView({ block: "nearest" });
    if (chatList) chatList.focus();
  }
  return html`<p class="unread-chat" role="status">${n > 0 && html`
    <button type="button" onClick=${open}>${n} unread ${n === 1 ? "message" : "messages"} in the chat</button>`}</p>`;
}

/** Whether the chat (`section`) is seen, in a tab in front: its messages (`list`, once there
 * are some) at least half in view, or the focus in the chat. */
function useSeen(section, list, hasList) {
  const [inView, setInView] = useState(false);
  const [focused, setFocused] = useState(false);
  const [shown, setShown] = useState(!document.hidden);
  useEffect(() => {
    const target = (hasList && list.current) || section.current;
    if (!target) return undefined;
    const watcher = new IntersectionObserver(([entry]) => setInView(entry.intersectionRatio >= 0.5), { threshold: [0, 0.5, 1] });
    watcher.observe(target);
    return () => watcher.disconnect();
  }, [hasList]);
  useEffect(() => {
    const el = section.current;
    if (!el) return undefined;
    const into = () => setFocused(true);
    const out = (event) => setFocused(el.contains(event.relatedTarget));
    const visibility = () => setShown(!document.hidden);
    el.addEventListener("focusin", into);
    el.addEventListener("focusout", out);
    document.addEventListener("visibilitychange", visibility);
    return () => {
      el.removeEventListener("focusin", into);
      el.removeEventListener("focusout", out);
      document.removeEventListener("visibilitychange", visibility);
    };
  }, []);
  return shown && (inView || focused);
}

export function Chat({ chat, gameId, token, view }) {
  const { muted, toggle } = chat;
  const [text, setText] = useState("");
  const [refusal, setRefusal] = useState(null);
  const [busy, setBusy] = useState(false);
  const list = useRef(null);
  const section = useRef(null);
  const you = view.seat;
  const shown = chat.messages.filter((m) => !muted.has(m.name));
  const seen = useSeen(section, list, shown.length > 0);
  const hidden = chat.messages.length - shown.length;
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [shown.length]);
  useEffect(() => {
    if (seen) chat.read();
  }, [seen, chat.messages.length]);
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
    <section class="chat" aria-labelledby="chat-title" ref=${section}>
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
