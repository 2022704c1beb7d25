// A game's rules for its players (app/web/rules, Markdown with pictures): on their own page,
// `/rules/GAME`, and in a dialog over the table that closes back to it.
import { html, useState, useEffect, useRef } from "./lib.js";
import { marked } from "../vendor/marked.mjs";

// Each game's page is fetched once per visit, however often the dialog opens.
const pages = new Map();

function fetchRules(game) {
  if (!pages.has(game)) {
    const answer = fetch(`/api/games/types/${encodeURIComponent(game)}/rules`).then(async (got) => {
      if (!got.ok) return { failure: "There are no rules of that game here." };
      // The page's pictures are served beside it, under /rules-files/.
      const markup = marked.parse(await got.text()).replace(/src="(?!\/|https?:)([^"]+)"/g, 'src="/rules-files/$1"');
      return { markup };
    }).catch(() => {
      pages.delete(game); // a failed connection is tried again the next time
      return { failure: "The rules could not be loaded. Try again in a moment." };
    });
    pages.set(game, answer);
  }
  return pages.get(game);
}

/** The rules page of `game` once `wanted`: `{markup}`, `{failure}`, or null while loading. */
function useRules(game, wanted = true) {
  const [page, setPage] = useState(null);
  useEffect(() => {
    if (!wanted || !game) return undefined;
    let current = true;
    fetchRules(game).then((got) => current && setPage(got));
    return () => { current = false; };
  }, [game, wanted]);
  return page;
}

/** `<h1>Title</h1>` taken off the page, the other headings one level down (under the table's h1). */
function underHeading(markup) {
  const found = markup.match(/<h1[^>]*>([\s\S]*?)<\/h1>/);
  const rest = (found ? markup.replace(found[0], "") : markup)
    .replace(/<(\/?)h([1-5])(?=[\s>])/g, (_, slash, level) => `<${slash}h${Number(level) + 1}`);
  return { title: found ? found[1] : "How to play", rest };
}

/** The page `/rules/GAME`: the rules with their h1, and the way back to the lobby. */
export function Rules({ game }) {
  const page = useRules(game);
  const back = html`<p class="rules-back"><a href="/">Back to the lobby</a></p>`;
  if (page && page.failure) return html`<h1>No rules here</h1><p class="refusal" role="alert">${page.failure}</p>${back}`;
  if (!page) return html`<p>Loading the rules…</p>`;
  return html`${back}<article class="rules" dangerouslySetInnerHTML=${{ __html: page.markup }}></article>${back}`;
}

/**
 * The rules over the table: a modal dialog, opened each time `asked` grows (a count of the
 * player's requests, so a request that comes before the last close's event still opens it).
 * Escape and "Back to the table" close it, and the focus goes back to what opened it.
 */
export function RulesDialog({ game, asked }) {
  const dialog = useRef(null);
  const opener = useRef(null);
  const page = useRules(game, asked > 0);
  useEffect(() => {
    const box = dialog.current;
    if (!box || asked === 0 || box.open) return;
    opener.current = document.activeElement;
    box.showModal();
  }, [asked]);
  function closed() {
    // Escape closes the native dialog by itself; either way the focus goes back here, unless
    // the dialog was opened again before this event came.
    if (dialog.current && dialog.current.open) return;
    const back = opener.current;
    opener.current = null;
    if (back && back.isConnected && typeof back.focus === "function") back.focus();
  }
  const { title, rest } = page && page.markup ? underHeading(page.markup) : { title: "How to play", rest: null };
  return html`<dialog ref=${dialog} class="rules-dialog" aria-labelledby="rules-dialog-title" onClose=${closed}>
    <header class="rules-dialog-head">
      <h2 id="rules-dialog-title" dangerouslySetInnerHTML=${{ __html: title }}></h2>
      <button type="button" class="primary" onClick=${() => dialog.current.close()}>Back to the table</button>
    </header>
    ${page && page.failure && html`<p class="refusal" role="alert">${page.failure}</p>`}
    ${!page && asked > 0 && html`<p>Loading the rules…</p>`}
    ${rest !== null && html`<article class="rules" dangerouslySetInnerHTML=${{ __html: rest }}></article>`}
  </dialog>`;
}
