// The bonus chip: taking it ends the player's round (docs/rules/mondo.md, "Bonus chips"): they
// lay no more tiles until the next one. While their board has empty spaces it asks first, in
// words, with Yes and No buttons that the keyboard reaches; the empty spaces are the view's.
import { html, useState, useRef, useLayoutEffect } from "./lib.js";
import { ROWS } from "./mondo-world.js";
import { COLS } from "./mondo-words.js";

/** The empty spaces of a seat's board: as the view scores them (−1 each), else as it shows
 * them (the spaces no tile is on). */
export function emptySpaces(seat) {
  const scored = seat.score_now && seat.score_now.empty_spaces;
  return typeof scored === "number" ? -scored : ROWS * COLS - seat.board.length;
}

const spaces = (n) => `${n} empty ${n === 1 ? "space" : "spaces"}`;

/** The chip's button (`chip`: its command, when the view allows it; `top`: its value). */
export function BonusChip({ chip, top, seat, holding, act }) {
  const [asking, setAsking] = useState(false);
  const button = useRef(null);
  const no = useRef(null);
  const empty = emptySpaces(seat);
  useLayoutEffect(() => {
    if (asking && no.current) no.current.focus();
  }, [asking]);
  function close() {
    if (button.current) button.current.focus();
    setAsking(false);
  }
  function ask() {
    if (!chip) return;
    if (empty > 0) setAsking(true);
    else act(chip);
  }
  function take() {
    close();
    act(chip);
  }
  return html`
    <button type="button" class="primary" ref=${button} aria-disabled=${chip ? null : "true"} aria-expanded=${chip && empty > 0 ? String(asking) : null} onClick=${ask}>
      Take the bonus chip${top !== undefined ? ` (${top})` : ""}</button>
    ${asking && chip && html`
      <div class="confirm chip-confirm" role="group" aria-labelledby="chip-question"
        onKeyDown=${(e) => { if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); close(); } }}>
        <p id="chip-question">Take the bonus chip${top !== undefined ? ` ${top}` : ""} and stop building this round?
          You lay no more tiles until the next round${holding ? ", and the tile in your hand goes back to the display" : ""};
          your board keeps its ${spaces(empty)}, −1 point each.</p>
        <button type="button" onClick=${take}>Yes, take the chip</button>
        <button type="button" ref=${no} onClick=${close}>No, keep building</button>
      </div>`}`;
}
