// A game's rules as the server implements them, from its rules page (Markdown), with pictures.
import { html, useState, useEffect } from "./lib.js";
import { marked } from "../vendor/marked.mjs";

export function Rules({ game }) {
  const [page, setPage] = useState(null);
  const [failure, setFailure] = useState(null);
  useEffect(() => {
    fetch(`/api/games/types/${encodeURIComponent(game)}/rules`).then(async (answer) => {
      if (!answer.ok) {
        setFailure("There are no rules of that game here.");
        return;
      }
      // The page is the project's own (docs/rules); its pictures are served beside it.
      const markup = marked.parse(await answer.text()).replace(/src="(?!\/|https?:)([^"]+)"/g, 'src="/rules-files/$1"');
      setPage(markup);
    });
  }, [game]);
  if (failure) return html`<p class="refusal" role="alert">${failure}</p>`;
  if (!page) return html`<p>Loading the rules…</p>`;
  return html`<article class="rules" dangerouslySetInnerHTML=${{ __html: page }}></article>
    <p><a href="/">Back to the lobby</a></p>`;
}
