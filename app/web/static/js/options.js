// A game's options as the server declares them (`GET /api/games/types`): a form field for
// each, and the chosen ones in words.
import { html, useState } from "./lib.js";

/** "Between 5 and 86,400 seconds.": an option's bounds as the server declares them, or "". */
export function boundsWords(spec) {
  const n = (v) => Number(v).toLocaleString("en");
  const unit = spec.unit ? ` ${spec.unit}` : "";
  if (spec.minimum !== undefined && spec.maximum !== undefined) return `Between ${n(spec.minimum)} and ${n(spec.maximum)}${unit}.`;
  if (spec.minimum !== undefined) return `At least ${n(spec.minimum)}${unit}.`;
  if (spec.maximum !== undefined) return `At most ${n(spec.maximum)}${unit}.`;
  return "";
}

let helpIds = 0;

/** A form field for one option: its label, and its help sentence and bounds tied to it. */
/** A game type's options in a fieldset (nothing for a game that has none). */
export function OptionFields({ type, options, setOptions }) {
  if (!type.options.length) return null;
  return html`
    <fieldset>
      <legend>Options</legend>
      ${type.options.map((o) => html`<${Option} spec=${o} value=${options[o.name]}
        onChange=${(v) => setOptions({ ...options, [o.name]: v })} />`)}
    </fieldset>`;
}

export function Option({ spec, value, onChange }) {
  const [help] = useState(() => `option-help-${++helpIds}`);
  const label = spec.label || spec.name;
  const words = [spec.description, boundsWords(spec)].filter(Boolean).join(" ");
  const note = words && html`<small class="help" id=${help}>${words}</small>`;
  const described = words ? help : undefined;
  if (spec.type === "boolean") {
    return html`<div class="option"><label class="check"><input type="checkbox" checked=${value ?? spec.default}
      aria-describedby=${described} onChange=${(e) => onChange(e.target.checked)} /> ${label}</label>${note}</div>`;
  }
  if (spec.choices) {
    return html`<div class="option"><label>${label}<select value=${value ?? spec.default ?? ""} aria-describedby=${described}
      onChange=${(e) => onChange(e.target.value)}>
      ${spec.choices.map((c) => html`<option value=${c}>${c}</option>`)}</select></label>${note}</div>`;
  }
  if (spec.type === "integer" || spec.type === "number") {
    return html`<div class="option"><label>${label}${spec.unit && !label.toLowerCase().includes(spec.unit.replace(/s$/, "")) ? ` (${spec.unit})` : ""}
      <input type="number" min=${spec.minimum} max=${spec.maximum} step=${spec.type === "integer" ? 1 : "any"}
        placeholder=${spec.default ?? ""} value=${value ?? ""} aria-describedby=${described}
        onInput=${(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))} /></label>${note}</div>`;
  }
  return html`<div class="option"><label>${label}<input value=${value ?? ""} placeholder=${spec.default ?? ""}
    aria-describedby=${described} onInput=${(e) => onChange(e.target.value || undefined)} /></label>${note}</div>`;
}

const SAID = {
  turn_seconds: (v) => `${v} seconds a turn`,
  timeouts_to_ai: (v) => `${v} timeouts in a row hand a seat to the AI`,
  takeover_level: (v) => `the ${v} AI plays for a player who leaves`,
};

/** "60 seconds a turn, Advanced game": the options that differ from their defaults, in words. */
export function optionWords(type, options) {
  const specs = type ? type.options : [];
  const words = [];
  for (const [name, value] of Object.entries(options || {})) {
    const spec = specs.find((s) => s.name === name);
    if (value === null || value === undefined || (spec && spec.default === value)) continue;
    const label = spec && spec.label ? spec.label : name.replaceAll("_", " ");
    const unit = spec && spec.unit ? ` ${spec.unit}` : "";
    if (SAID[name]) words.push(SAID[name](value));
    else if (value === true) words.push(label);
    else if (value === false) words.push(`no ${label.toLowerCase()}`);
    else words.push(`${label}: ${value}${unit}`);
  }
  return words.length ? words.join(", ") : "standard rules";
}

/** The sentence a game or table with a chosen seed shows, or null. */
export function seedWords(holder) {
  if (holder.seed === undefined || holder.seed === null) return null;
  return `Seed ${holder.seed} chosen by the creator: casual game`;
}
