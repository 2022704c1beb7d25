// Mondo's round clock: a role=timer that screen readers do not read every second, and a
// separate cue (#mondo-clock-cue) that speaks at each full minute left, at 10 s and when the
// round is over.
import { html, useState, useEffect, useRef } from "./lib.js";
import { clock, secondsLeft } from "./mondo-words.js";

/** The server's time, ticking: `skew` is the server's clock less the browser's. */
export function useNow(skew) {
  const [now, setNow] = useState(Date.now() + skew);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() + skew), 250);
    return () => clearInterval(timer);
  }, [skew]);
  return now;
}

const minutes = (n) => `${n} ${n === 1 ? "minute" : "minutes"}`;
const LAST_CUE_S = 10;

/** What the cue says when the clock goes from `was` to `is` ({running, round, seconds}), or
 * "" when it says nothing: a full minute passed, 10 s left, the round over. */
export function cueFor(was, is) {
  if (!was) return "";
  if (was.running && !is.running) return `Round ${was.round} is over.`;
  if (!is.running || was.round !== is.round || was.seconds <= is.seconds) return "";
  const minute = Math.floor((was.seconds - 1) / 60) * 60; // the last full minute passed
  if (minute > 0 && minute >= is.seconds) return `${minutes(minute / 60)} left in round ${is.round}.`;
  if (was.seconds > LAST_CUE_S && is.seconds <= LAST_CUE_S && is.seconds > 0) return `${LAST_CUE_S} seconds left in round ${is.round}.`;
  return "";
}

export function RoundClock({ state, left }) {
  const [cue, setCue] = useState("");
  const was = useRef(null);
  const seconds = secondsLeft(left);
  useEffect(() => {
    const is = { running: state.running, round: state.round, seconds };
    const said = cueFor(was.current, is);
    was.current = is;
    if (said) setCue(said);
  }, [state.running, state.round, seconds]);
  return html`
    ${state.over ? html`<span>The game is over.</span>`
      : state.running ? html`<span class="countdown" role="timer">Time left ${clock(left)}</span>`
      : html`<span class="countdown" role="timer">Next round in ${clock(left)}</span>`}
    <span id="mondo-clock-cue" class="visually-hidden" role="status" aria-live="polite">${cue}</span>`;
}
