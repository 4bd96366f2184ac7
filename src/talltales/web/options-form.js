// Form fields: a labelled control with its hint, and the house-rules controls generated from
// a game's msgspec JSON schema (used by the create form on the home page and by the lobby).

import { capitalise, el, showError } from "./dom.js";

export function field(label, input, hint) {
  const hintEl = hint ? el("p", { class: "hint", id: `${input.id}-hint` }, hint) : null;
  if (hintEl) input.setAttribute("aria-describedby", hintEl.id);
  return el("div", { class: "field" }, el("label", { htmlFor: input.id }, label), input, hintEl);
}

// --- options from a msgspec JSON schema -----------------------------------------------------
function humanise(key) {
  return capitalise(String(key).replace(/[_-]+/g, " "));
}

function optionProps(game) {
  const schema = game.options_schema || {};
  const defs = schema.$defs || {};
  const deref = (s) => {
    for (let i = 0; s && s.$ref && i < 8; i++) s = defs[s.$ref.split("/").pop()];
    return s || {};
  };
  const root = deref(schema);
  return Object.entries(root.properties || {}).map(([key, raw]) => {
    let prop = deref(raw);
    if (Array.isArray(prop.anyOf)) {
      const inner = prop.anyOf.map(deref).find((p) => p.type !== "null") || {};
      prop = { ...inner, default: prop.default ?? inner.default, title: prop.title ?? inner.title, description: prop.description ?? inner.description };
    }
    return [key, prop];
  });
}

/**
 * Form controls for a game's options: enums as selects, booleans as checkboxes, integers as
 * number inputs with their bounds. Returns {fields, read()} where read() gives the values or
 * null (after reporting) when one is invalid.
 */
export function optionControls(game, values, { prefix, disabled = false, onChange = null, labels = {} }) {
  const fields = [];
  const readers = [];
  for (const [key, prop] of optionProps(game)) {
    const meta = labels[key] || {};
    const id = `${prefix}${key}`;
    const label = meta.label || prop.title || humanise(key);
    const hint = meta.hint || prop.description || null;
    const value = key in values ? values[key] : (game.options?.[key] ?? prop.default);
    let input;
    let read;
    if (Array.isArray(prop.enum)) {
      input = el("select", { id, testid: id, disabled },
        prop.enum.map((v, i) => el("option", { value: String(i), selected: v === value },
          meta.values?.[v] ?? humanise(v))));
      read = () => prop.enum[Number(input.value)];
    } else if (prop.type === "boolean") {
      input = el("input", { id, testid: id, type: "checkbox", checked: Boolean(value), disabled });
      read = () => input.checked;
    } else if (prop.type === "integer" || prop.type === "number") {
      const min = prop.minimum ?? (prop.exclusiveMinimum !== undefined ? prop.exclusiveMinimum + 1 : undefined);
      const max = prop.maximum ?? (prop.exclusiveMaximum !== undefined ? prop.exclusiveMaximum - 1 : undefined);
      input = el("input", {
        id, testid: id, type: "number", inputMode: "numeric", value: String(value ?? ""),
        step: prop.type === "integer" ? "1" : "any", disabled,
        min: min === undefined ? null : String(min), max: max === undefined ? null : String(max),
      });
      read = () => {
        const n = Number(input.value);
        if (input.value === "" || !Number.isFinite(n) || (prop.type === "integer" && !Number.isInteger(n))
          || (min !== undefined && n < min) || (max !== undefined && n > max)) {
          const range = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : "";
          throw { input, text: `${label}: choose a whole number${range}.` };
        }
        return n;
      };
    } else if (prop.type === "string") {
      input = el("input", { id, testid: id, type: "text", value: String(value ?? ""), disabled,
        maxLength: prop.maxLength ?? null });
      read = () => input.value;
    } else {
      continue; // a shape this form does not know: the server default applies
    }
    const wrap = input.type === "checkbox"
      ? el("div", { class: "field check" }, input, el("label", { htmlFor: id }, label),
        hint ? el("p", { class: "hint", id: `${id}-hint` }, hint) : null)
      : field(label, input, hint);
    if (hint && input.type === "checkbox") input.setAttribute("aria-describedby", `${id}-hint`);
    if (onChange) {
      input.addEventListener("change", () => {
        try {
          onChange(key, read(), input);
        } catch (bad) {
          showError(bad.text, bad.input);
        }
      });
    }
    fields.push(wrap);
    readers.push([key, read]);
  }
  return {
    fields,
    read() {
      const out = {};
      for (const [key, read] of readers) {
        try {
          out[key] = read();
        } catch (bad) {
          showError(bad.text, bad.input);
          bad.input.focus();
          return null;
        }
      }
      return out;
    },
  };
}
