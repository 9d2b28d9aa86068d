// A house rule in words, in the page's language: the create form's choices, and the rules a table
// plays that differ from its preset (the waiting room, the join page). Never a raw value: numbers
// come in the language's digits, inside a sentence saying what they count.

import { STRINGS, digits, num, t } from "./i18n.js";

/** An option's value in words ("Blind up to 3 stakes, seen up to 6", "No pot limit"). */
export function ruleText(key, value) {
  if (key === "range_max_stakes") return t("opt.range_max_stakes.n", { n: value, seen: value * 2 });
  if (key === "fixed_rank") return digits(String(value));
  if (typeof value === "number") {
    const words = `opt.${key}.n`;
    return words in STRINGS.en ? t(words, { n: value }) : num(value);
  }
  const words = `opt.${key}.${value}`;
  return words in STRINGS.en ? t(words) : digits(String(value));
}

/** An option's name ("Pot limit"); its key when the page has no words for it yet. */
export function ruleName(key) {
  return `opt.${key}` in STRINGS.en ? t(`opt.${key}`) : key;
}

/** "Pot limit: All show when the pot reaches 50 boots". */
export function ruleLine(key, value) {
  return `${ruleName(key)}: ${ruleText(key, value)}`;
}
