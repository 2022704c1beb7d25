// Telling a player what happens while they look elsewhere: a live region for the others'
// moves, your turn and the end; "your turn" in the tab's title and a badge on its icon while
// the page is in the background; a short sound on your turn, off unless the player turns it
// on (remembered in this browser).
import { html, useState, useEffect, useRef, useCallback } from "./lib.js";
import { sinceMine } from "./moves.js";
import { markTitle, setTitle } from "./title.js";

const SOUND_KEY = "sound-on-turn";
const QUIET = new Set(["clock_set"]);

/** A live region's text: `say(text)` speaks it, even when it repeats the last one. */
export function useLiveText() {
  const [text, setText] = useState("");
  const timer = useRef(null);
  const last = useRef({ text: "", at: 0 });
  const say = useCallback((next) => {
    // What comes within a second of the last words joins them, so that neither is cut off.
    const now = Date.now();
    const joined = now - last.current.at < 1000 && last.current.text ? `${last.current.text} ${next}` : next;
    last.current = { text: joined, at: now };
    setText("");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setText(joined), 50);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [text, say];
}

export function LiveText({ text }) {
  return html`<p class="visually-hidden" aria-live="polite" aria-atomic="true" data-live="table">${text}</p>`;
}

function badge(on) {
  const icon = document.querySelector('link[rel="icon"]');
  if (!icon) return;
  // A white disc with a dark ring and an exclamation mark: a shape, not a colour alone.
  icon.href = on
    ? "data:image/svg+xml," + encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#a61b1b" stroke="#000" stroke-width="2"/><text x="16" y="23" font-size="20" font-family="sans-serif" font-weight="700" text-anchor="middle" fill="#fff">!</text></svg>')
    : "data:,";
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
    tone.onended = () => audio.close();
  } catch {
    // No sound here: the title and the live region still say it.
  }
}

export function useSound() {
  const [on, setOn] = useState(() => localStorage.getItem(SOUND_KEY) === "on");
  const set = useCallback((next) => {
    localStorage.setItem(SOUND_KEY, next ? "on" : "off");
    setOn(next);
  }, []);
  return [on, set];
}

export function SoundToggle({ on, set }) {
  return html`<button type="button" class="link sound" aria-pressed=${on ? "true" : "false"}
    onClick=${() => set(!on)}>Sound on my turn: ${on ? "on" : "off"}</button>`;
}

/**
 * Watch the view and the log: say the others' moves as they come (for a game whose seats play
 * at once, only what the table's machine does: rounds starting and ending), your turn, the end.
 * `title` is the game's; `ending` the end's sentence.
 */
export function useAnnouncer({ view, log, title, simultaneous, sound, say, ending }) {
  const seen = useRef(null); // the log's length already spoken of
  const wasMine = useRef(null);
  const wasOver = useRef(null);
  const base = useRef(document.title);
  const [waiting, setWaiting] = useState(false); // "your turn" shown in the title and icon

  const mine = !!view && view.seat !== null && view.status === "active" && view.to_act.includes(view.seat);
  const over = !!view && view.status === "over";

  useEffect(() => {
    if (!view) return;
    if (seen.current === null) { // the first view: nothing new yet
      seen.current = log.length;
      wasMine.current = mine;
      wasOver.current = over;
      return;
    }
    const fresh = log.slice(seen.current);
    seen.current = log.length;
    const others = sinceMine(fresh, view.seat).filter((e) => !QUIET.has(e.event.type)
      && e.by !== view.seat && (!simultaneous || e.by === null || e.by === undefined));
    const words = others.map((e) => e.text);
    // Your turn comes back after another seat's move, even one so fast that no view showed
    // the turn away from you (where seats play at once, only when you could not play before).
    const moved = !simultaneous && fresh.some((e) => e.by !== view.seat && !QUIET.has(e.event.type));
    if (mine && (!wasMine.current || moved)) words.push("Your turn.");
    if (over && !wasOver.current) words.push(ending);
    wasMine.current = mine;
    wasOver.current = over;
    if (words.length) say(words.join(" "));
    if (mine && words.includes("Your turn.")) {
      if (sound) beep();
      if (document.hidden) setWaiting(true);
    }
  }, [view && view.version, log.length]);

  useEffect(() => {
    if (!mine) setWaiting(false);
  }, [mine]);
  useEffect(() => {
    const back = () => { if (!document.hidden) setWaiting(false); };
    document.addEventListener("visibilitychange", back);
    return () => document.removeEventListener("visibilitychange", back);
  }, []);
  useEffect(() => {
    setTitle(`${title} · ${base.current}`);
    markTitle("turn", waiting ? "(Your turn)" : "");
    badge(waiting);
  }, [waiting, title]);
  useEffect(() => () => { setTitle(base.current); markTitle("turn", ""); badge(false); }, []);
}
