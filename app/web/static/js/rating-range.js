// A table's rating range: the two optional fields of the form that opens a table, and the
// range in words. The server decides who may sit; the player's own rating is said here to
// help them choose.
import { html, useState, useEffect } from "./lib.js";
import { api } from "./api.js";

/** "for ratings between 900 and 1200", "for ratings of 900 or more"..., or "" for none. */
export function rangeWords(table) {
  const low = table.rating_min ?? null;
  const high = table.rating_max ?? null;
  if (low !== null && high !== null) return `for ratings between ${low} and ${high}`;
  if (low !== null) return `for ratings of ${low} or more`;
  if (high !== null) return `for ratings of ${high} or less`;
  return "";
}

/** The titles of the player's page (each with their rating), or null until read. */
function useOwnRatings(player) {
  const [titles, setTitles] = useState(null);
  useEffect(() => {
    if (!player) return;
    api(`/api/players/${encodeURIComponent(player)}`).then((page) => setTitles(page.titles), () => setTitles(null));
  }, [player]);
  return titles;
}

let helpIds = 0;

/** The range's two fields (`range`: {min, max}, as typed), and a help sentence tied to both. */
export function RatingRange({ range, onChange, game, player }) {
  const [help] = useState(() => `rating-range-help-${++helpIds}`);
  const titles = useOwnRatings(player);
  const mine = titles && (titles.find((t) => t.game === game.name) || { rating: 1000, provisional: true });
  const yours = mine ? ` Yours at ${game.title} is ${mine.rating}${mine.provisional ? " (provisional)" : ""}.` : "";
  const field = (end, label) => html`
    <label>${label}
      <input type="number" min="0" max="10000" step="1" inputmode="numeric" value=${range[end]}
        aria-describedby=${help} onInput=${(e) => onChange({ ...range, [end]: e.target.value })} />
    </label>`;
  return html`
    <fieldset class="rating-range">
      <legend>Rating range (optional)</legend>
      <div class="row">${field("min", "Lowest rating")}${field("max", "Highest rating")}</div>
      <small class="help" id=${help}>Only players whose rating at this game is in the range may sit, you too if you sit; leave both empty for anyone. A new player's rating is 1000.${yours}</small>
    </fieldset>`;
}
