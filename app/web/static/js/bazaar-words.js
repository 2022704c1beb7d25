// Bazaar's words in the browser: counts with their nouns ("1 stone", "2 stones", "1 point"),
// groups of stones by colour, prices with their basis.

export const COLOURS = ["red", "green", "blue", "white", "yellow"];

/** "1 stone", "2 stones", "0 points". */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** The stones counted by colour, in the colours' order: [["red", 2], ["blue", 1]]. */
export function counted(colours) {
  return COLOURS.map((c) => [c, colours.filter((x) => x === c).length]).filter(([, n]) => n);
}

/** "1 red stone", "2 blue stones", "3 stones (2 red, 1 blue)", "no stone". */
export function stoneWords(colours) {
  const counts = counted(colours);
  if (!counts.length) return "no stone";
  if (counts.length === 1) return plural(counts[0][1], `${counts[0][0]} stone`, `${counts[0][0]} stones`);
  return `${plural(colours.length, "stone")} (${counts.map(([c, n]) => `${n} ${c}`).join(", ")})`;
}

/** "5 points (cheap, 1 stone left, a stall is empty)". */
export function priceWords(price) {
  const side = price.stall_empty ? ", a stall is empty" : "";
  return `${plural(price.points, "point")} (${price.kind}, ${plural(price.left, "stone")} left${side})`;
}

/** "a cheap ware (3 green, 1 white, 1 yellow)". */
export function wareWords(ware) {
  const kind = ware.precious ? "precious" : "cheap";
  return `a ${kind} ware (${counted(ware.stones).map(([c, n]) => `${n} ${c}`).join(", ")})`;
}

/** "+1 red, −2 blue": a carpet's change, gains first. */
export function changeWords(change) {
  const gained = COLOURS.filter((c) => change[c] > 0).map((c) => `+${change[c]} ${c}`);
  const lost = COLOURS.filter((c) => change[c] < 0).map((c) => `−${-change[c]} ${c}`);
  return [...gained, ...lost].join(", ");
}
