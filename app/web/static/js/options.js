// A game's options as the server declares them (`GET /api/games/types`): a form field for
// each, and the chosen ones in words.
import { html } from "./lib.js";

export function Option({ spec, value, onChange }) {
  const label = spec.description ? `${spec.name} (${spec.description})` : spec.name;
  if (spec.type === "boolean") {
    return html`<label class="check"><input type="checkbox" checked=${value ?? spec.default}
      onChange=${(e) => onChange(e.target.checked)} /> ${label}</label>`;
  }
  if (spec.choices) {
    return html`<label>${label}<select value=${value ?? spec.default ?? ""} onChange=${(e) => onChange(e.target.value)}>
      ${spec.choices.map((c) => html`<option value=${c}>${c}</option>`)}</select></label>`;
  }
  if (spec.type === "integer" || spec.type === "number") {
    return html`<label>${label}
      <input type="number" min=${spec.minimum} max=${spec.maximum} step=${spec.type === "integer" ? 1 : "any"}
        placeholder=${spec.default ?? ""} value=${value ?? ""}
        onInput=${(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))} /></label>`;
  }
  return html`<label>${label}<input value=${value ?? ""} placeholder=${spec.default ?? ""}
    onInput=${(e) => onChange(e.target.value || undefined)} /></label>`;
}

const SAID = {
  turn_seconds: (v) => `${v} seconds a turn`,
  timeouts_to_ai: (v) => `${v} timeouts in a row hand a seat to the AI`,
  takeover_level: (v) => `the ${v} AI plays for a player who leaves`,
};

/** "60 seconds a turn, advanced": the options that differ from their defaults, in words. */
export function optionWords(type, options) {
  const specs = type ? type.options : [];
  const words = [];
  for (const [name, value] of Object.entries(options || {})) {
    const spec = specs.find((s) => s.name === name);
    if (value === null || value === undefined || (spec && spec.default === value)) continue;
    const spoken = name.replaceAll("_", " ");
    if (SAID[name]) words.push(SAID[name](value));
    else if (value === true) words.push(spoken);
    else if (value === false) words.push(`no ${spoken}`);
    else words.push(`${spoken}: ${value}`);
  }
  return words.length ? words.join(", ") : "standard rules";
}

/** The sentence a game or table with a chosen seed shows, or null. */
export function seedWords(holder) {
  if (holder.seed === undefined || holder.seed === null) return null;
  return `Seed ${holder.seed} chosen by the creator: casual game`;
}
