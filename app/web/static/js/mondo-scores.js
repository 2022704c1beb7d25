// Mondo's scores: every line of one board's score, and the round's scores in a dialog that
// opens by itself when a round ends and a break follows (it takes the focus; Escape or "Back to
// the table" closes it; it closes by itself when the next round starts), and a button that
// opens it again. The game's end is the table's (js/ending.js): it does not open then.
import { html, useState, useEffect, useRef } from "./lib.js";
import { SeatBadge, seatClass } from "./moves.js";
import { clock, specialName, taskName } from "./mondo-words.js";

export function ScoreLines({ score, special = null }) {
  const lines = [
    ["Animals", score.animals], ["Closed landscapes", score.landscapes], ["Bonus chip", score.bonus],
    [`Volcanoes (${score.volcano_count})`, score.volcanoes], ["Empty spaces", score.empty_spaces],
    ["Closure errors", score.closure_errors],
  ];
  if (score.special || special) lines.push([`${special ? specialName(special) : "Special scoring"} (${score.special_count})`, score.special]);
  score.tasks.forEach((t) => lines.push([`${taskName(t.task)} (${t.fulfilled ? "fulfilled" : "not fulfilled"})`, t.points]));
  return html`<dl class="score-lines">${lines.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
    <div class="total"><dt>Total</dt><dd>${score.total}</dd></div></dl>`;
}

/** The special scoring of round `round`, from its start in the log. */
function specialOf(log, round) {
  const start = (log || []).find((e) => e.event.type === "round_started" && e.event.round === round);
  return start ? start.event.special : null;
}

/** A break this short (a break of 0 s, seen between the round's end and the next start) opens
 * nothing: only the button. */
const SHORTEST_BREAK_MS = 1000;

export function RoundScores({ state, seats, log, breakMs }) {
  const scores = state.last_round;
  const round = state.running ? state.round - 1 : state.round;
  const [open, setOpen] = useState(false);
  const opened = useRef(0); // the round whose scores opened by themselves
  const byItself = useRef(false);
  const dialog = useRef(null);
  const heading = useRef(null);
  const between = !!scores && !state.running && !state.over;

  useEffect(() => {
    if (between && opened.current !== round && breakMs > SHORTEST_BREAK_MS) {
      opened.current = round;
      byItself.current = true;
      setOpen(true);
    } else if (state.running && byItself.current) {
      byItself.current = false;
      setOpen(false);
    }
  }, [between, round, state.running, breakMs > SHORTEST_BREAK_MS]);
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      el.showModal();
      if (heading.current) heading.current.focus();
    } else if (!open && el.open) el.close();
  }, [open]);

  if (!scores) return null;
  const special = specialOf(log, round);
  return html`
    <p class="round-scores-open"><button type="button" onClick=${() => { byItself.current = false; setOpen(true); }}>Scores of round ${round}</button></p>
    <dialog class="round-scores" ref=${dialog} aria-labelledby="breakdown-title" onClose=${() => setOpen(false)}>
      <h2 id="breakdown-title" tabindex="-1" ref=${heading}>Round ${round} scores</h2>
      ${between && html`<p class="next">Next round in ${clock(breakMs)}.</p>`}
      <div class="breakdown-grid">${scores.map((score, seat) => html`
        <div key=${seat} class=${seatClass(seat)}><h3><${SeatBadge} seat=${seat} /> ${seats[seat].name}</h3>
          <${ScoreLines} score=${score} special=${special} /></div>`)}</div>
      <p class="close"><button type="button" class="primary" onClick=${() => setOpen(false)}>Back to the table</button></p>
    </dialog>`;
}
