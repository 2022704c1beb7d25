// The tab's title, composed: the page's own title, and in front of it the marks that parts of
// the page put there while they have news ("(Your turn)", "(2 messages)"), each on its own.
const ORDER = ["turn", "chat"];
const marks = new Map();
let main = null;

function show() {
  const ordered = [...marks.keys()].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  document.title = [...ordered.map((key) => marks.get(key)), main].filter(Boolean).join(" ");
}

/** The page's own title, behind the marks. */
export function setTitle(text) {
  main = text;
  show();
}

/** Put `words` in front of the title as the mark `key`, or take the mark away (no words). */
export function markTitle(key, words) {
  if (main === null) main = document.title;
  if (words) marks.set(key, words);
  else marks.delete(key);
  show();
}
