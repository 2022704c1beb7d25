// Mondo's words on the table: the special scorings and tasks by their names in the rules (the
// same names as domain/mondo/words.py, which the log uses; a unit test keeps them equal), counts
// with their plurals, the spaces as the log names them, a clock.

export const COLS = 6;

export const SPECIAL_NAMES = {
  most_regions: "The most regions",
  most_seas: "The most seas",
  most_sea_animals: "The most sea animals",
  largest_sea: "The largest sea",
  largest_forest: "The largest forest",
};

export const TASK_NAMES = {
  three_buffalo: "Three of a kind: buffaloes",
  three_elephant: "Three of a kind: elephants",
  three_panda: "Three of a kind: pandas",
  three_parrot: "Three of a kind: parrots",
  three_snake: "Three of a kind: snakes",
  three_scorpion: "Three of a kind: scorpions",
  four_steppe: "Four animals in one: steppe",
  four_forest: "Four animals in one: forest",
  four_desert: "Four animals in one: desert",
  error_free_board: "Error-free board",
  finished_in_time: "Finished in time",
  first_to_finish: "First to finish",
};

/** An id the client does not know yet still reads as words. */
const spoken = (id) => id.replaceAll("_", " ");
export const specialName = (id) => SPECIAL_NAMES[id] || spoken(id);
export const taskName = (id) => TASK_NAMES[id] || spoken(id);

/** "1 tile", "3 tiles". */
export function tileCount(n) {
  return `${n} ${n === 1 ? "tile" : "tiles"}`;
}

/** A space's name, as the log says it: rows from 1 at the top, columns from 1 at the left. */
export function spaceName(space) {
  return `Row ${Math.floor(space / COLS) + 1}, column ${(space % COLS) + 1}`;
}

/** Whole seconds left, never below 0. */
export const secondsLeft = (ms) => Math.max(0, Math.ceil(ms / 1000));

export function clock(ms) {
  const seconds = secondsLeft(ms);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
