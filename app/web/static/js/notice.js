// What a form tells its user: a live region that is always in the page, so that a screen
// reader announces each new sentence in it (a refusal in the API's words, or a success).
import { html, useState } from "./lib.js";

/** A region for refusals (`role="alert"`), drawn as one only when it has something to say. */
export function Refusal({ text }) {
  return html`<p class=${text ? "refusal" : "quiet"} role="alert">${text || ""}</p>`;
}

/** A polite region for what went well. */
export function Said({ text }) {
  return html`<p class=${text ? "said" : "quiet"} role="status">${text || ""}</p>`;
}

/** A copy button for a value, saying whether the clipboard took it. */
export function CopyButton({ value, label }) {
  const [result, setResult] = useState(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setResult("Copied.");
    } catch {
      setResult("The browser did not let the page copy it: select the text and copy it.");
    }
  }
  return html`<button type="button" onClick=${copy}>${label}</button><span role="status">${result || ""}</span>`;
}

/** A local address to go on to after logging in (never another site's). */
export function nextPlace() {
  const next = new URLSearchParams(location.search).get("next");
  const local = next && next.startsWith("/") && !next.startsWith("//");
  return local && !/^\/(login|signup)\b/.test(next) ? next : "/";
}
