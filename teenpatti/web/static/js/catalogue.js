// The presets and house-rule options, as the server's engine defines them (GET /api/rules,
// docs/protocol.md): fetched once, so the page never keeps its own copy of a preset's defaults or
// of the values an option can take.

import { api } from "./net.js";

let current = null;
let loading = null;

/** Fetch the catalogue (once; again after a failure). Resolves to it, or to null if unreachable. */
export function loadCatalogue() {
  if (current) return Promise.resolve(current);
  if (!loading) {
    loading = api("/api/rules")
      .then((data) => {
        current = data;
        return data;
      })
      .catch(() => null)
      .finally(() => {
        loading = null;
      });
  }
  return loading;
}

/** The catalogue, or null until it has been fetched. */
export function catalogue() {
  return current;
}

/** A preset's options by name ({} if unknown or not fetched yet). */
export function presetOptions(name, cat = current) {
  const preset = cat && cat.presets[name || cat.default];
  return preset ? preset.options : {};
}

/** The options of `rules` (a table's rules) that differ from its preset, in catalogue order. */
export function changedOptions(rules, cat = current) {
  if (!cat) return [];
  const base = presetOptions(rules.preset, cat);
  return Object.keys(cat.options)
    .filter((key) => key in rules && key in base && rules[key] !== base[key])
    .map((key) => [key, rules[key]]);
}
