// Picks the page's strings: `t(key, params)` finds the key in the current language's file
// (strings-en.js, strings-ne.js), else in English; numbers in params are written with that
// language's digits. The choice is remembered.

import { EN } from "./strings-en.js";
import { NE } from "./strings-ne.js";

const STORE_KEY = "tp.lang";
const DIGITS = "०१२३४५६७८९";

export const STRINGS = { en: EN, ne: NE };

/** The language a first visit gets: Nepali when the phone puts Nepali ("ne", "ne-NP") before
 *  English among its languages, else English. */
export function phoneLang(languages) {
  for (const tag of languages || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "ne" || base === "en") return base;
  }
  return "en";
}

let saved = null;
try {
  saved = localStorage.getItem(STORE_KEY);
} catch {
  /* private mode: not remembered */
}
let current =
  saved === "en" || saved === "ne"
    ? saved
    : typeof navigator === "undefined"
      ? "en"
      : phoneLang(navigator.languages || [navigator.language]);

const listeners = new Set();

export function lang() {
  return current;
}

export function setLang(next) {
  if (next !== "en" && next !== "ne") return;
  current = next;
  try {
    localStorage.setItem(STORE_KEY, next);
  } catch {
    /* not remembered */
  }
  document.documentElement.lang = next;
  for (const fn of listeners) fn(next);
}

export function onLang(fn) {
  listeners.add(fn);
}

/** Indian digit grouping (1,00,000), made once: `toLocaleString` builds a formatter at every
 *  call, and a table's every state formats dozens of numbers. */
const GROUPING = new Intl.NumberFormat("en-IN");

/** The numbers written lately, in each language: a table writes the same few again and again
 *  (chips, stakes, the pot), and formatting one costs more than looking it up. */
const WRITTEN = { en: new Map(), ne: new Map() };

/** A number with grouping, in the language's digits (Devanagari in Nepali). */
export function num(n, which = current) {
  const seen = WRITTEN[which];
  if (seen && seen.has(n)) return seen.get(n);
  const grouped = GROUPING.format(Number(n));
  const text = which === "ne" ? grouped.replace(/[0-9]/g, (d) => DIGITS[Number(d)]) : grouped;
  if (seen) {
    if (seen.size >= 500) seen.clear();
    seen.set(n, text);
  }
  return text;
}

/** Digits of any text in the current language (for codes we keep Latin). */
export function digits(text, which = current) {
  return which === "ne" ? String(text).replace(/[0-9]/g, (d) => DIGITS[Number(d)]) : String(text);
}

/** "तपाईं" put where a name goes takes its postposition as one word: "तपाईंले", not "तपाईं ले"
 *  (docs/nepali.md; a name takes " ले" after a space). */
const YOU_THEN = /तपाईं (ले|लाई|को|का|की|सँग|मा)(?=$|[\s।,:;!?…)])/gu;

function fill(text, params, which) {
  const out = text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = params[name];
    if (value === undefined || value === null) return "";
    return typeof value === "number" ? num(value, which) : String(value);
  });
  return which === "ne" ? out.replace(YOU_THEN, "तपाईं$1") : out;
}

function template(key, which) {
  return STRINGS[which][key] ?? STRINGS.en[key];
}

export function t(key, params = {}, which = current) {
  const text = template(key, which);
  return text === undefined ? key : fill(text, params, which);
}

/** Like `t`, but a param may be a page element (a name in its own language, a code read letter by
 *  letter): the result is a list of strings and those elements, for `h()`. */
export function parts(key, params = {}, which = current) {
  const text = template(key, which);
  if (text === undefined) return [key];
  const out = [];
  const re = /\{(\w+)\}/g;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const value = params[m[1]];
    if (value === null || typeof value !== "object") continue;
    out.push(fill(text.slice(at, m.index), params, which), value);
    at = m.index + m[0].length;
  }
  out.push(fill(text.slice(at), params, which));
  return out.filter((piece) => piece !== "");
}

/** What to tell a player about an error from the server: our own sentence for its code (every code
 *  the server sends has one in both languages), else the server's reason in English only. */
export function errorText(code, reason = "") {
  if (code === "network") return t("err.network");
  const key = String(code).startsWith("rules/") ? "err.rules" : `err.${code}`;
  if (key in STRINGS.en) return t(key);
  if (/^http\/\d+$/.test(String(code))) return t("err.http"); // a proxy's status with no body of ours
  return t("err.generic", { reason: reason || code, code });
}

/**
 * Sentences joined into one line: ". " between them ("। " in Nepali), but only a space after one
 * that ends its own sentence already ("…खोलियो।", "you packed."), so none ends twice. Empty
 * parts are left out.
 */
export function sentences(parts, which = current) {
  let out = "";
  for (const part of parts.filter(Boolean)) {
    if (!out) out = part;
    else if (/[.!?।…]$/.test(out)) out += ` ${part}`;
    else out += `${which === "ne" ? "।" : "."} ${part}`;
  }
  return out;
}

/** A list of names joined with "and". */
export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  const head = names.slice(0, -1).join(", ");
  return t("result.and", { a: head, b: names[names.length - 1] });
}

/** The name of a kind of hand in the page's language, for text that cannot mark a second language
 *  (a screen reader's announcement, an aria-label): one voice reads it. On screen, `handName`
 *  (cards.js) shows both languages, each marked with its own. */
export function category(cat) {
  return t(`cat.${cat}`);
}

document.documentElement.lang = current;
