// On a phone the board is wider than the screen and scrolls in its own scroller, and the hand's
// bar sticks to the bottom of the screen: a cell the player needs (where the picked tile fits,
// the keyboard's cursor, the tile another seat has just laid) is brought into the part of the
// screen that shows the board.
import { SIZE } from "./crazymino-tiles.js";

/** The phone's layout of crazymino.css, where the board scrolls and the hand is docked. */
const PHONE = "(max-width: 800px)";

/** The screen's part that shows the board: inside the scroller, above a bar stuck to the bottom. */
function shownArea(scroller, dock, labels) {
  const box = scroller.getBoundingClientRect();
  const stuck = dock && getComputedStyle(dock).position === "sticky";
  const bottom = stuck ? Math.min(window.innerHeight, dock.getBoundingClientRect().top) : window.innerHeight;
  return { left: box.left + labels, right: box.right, top: 0, bottom };
}

function cellBox(board, row, col) {
  const box = board.getBoundingClientRect();
  const size = box.width / SIZE;
  return { left: box.left + col * size, top: box.top + row * size, size };
}

function isShown(area, cell) {
  return cell.left >= area.left - 1 && cell.left + cell.size <= area.right + 1
    && cell.top >= area.top - 1 && cell.top + cell.size <= area.bottom + 1;
}

/** Scroll (the board sideways, the page up or down) so that one of `cells` is in view; none
 *  moves when one already is. `cells` are [row, col], the first the one to bring. */
export function bringIntoView({ board, scroller, dock, labels = 0 }, cells) {
  if (!board || !scroller || !cells.length) return;
  const area = shownArea(scroller, dock, labels);
  if (cells.some(([row, col]) => isShown(area, cellBox(board, row, col)))) return;
  const cell = cellBox(board, cells[0][0], cells[0][1]);
  const margin = cell.size / 2;
  if (cell.left < area.left) scroller.scrollLeft -= area.left - cell.left + margin;
  else if (cell.left + cell.size > area.right) scroller.scrollLeft += cell.left + cell.size - area.right + margin;
  if (cell.top < area.top) window.scrollBy(0, cell.top - area.top - margin);
  else if (cell.top + cell.size > area.bottom) window.scrollBy(0, cell.top + cell.size - area.bottom + margin);
}

/** On a phone, the cell of a tile just laid, given an element of the board's drawing: the page
 *  (and the board sideways) scrolls until the cell shows above the docked hand. Nothing moves
 *  while the board is off the screen (the player reading the log or the chat below it). */
export function showLaid(within, row, col) {
  const board = within && within.closest(".board");
  const scroller = within && within.closest(".board-scroller");
  if (!board || !scroller || !window.matchMedia(PHONE).matches) return;
  const box = scroller.getBoundingClientRect();
  if (box.bottom <= 0 || box.top >= window.innerHeight) return;
  const dock = scroller.closest(".crazymino").querySelector(".side");
  const labels = scroller.querySelector(".row-labels").offsetWidth;
  bringIntoView({ board, scroller, dock, labels }, [[row, col]]);
}
