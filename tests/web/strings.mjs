// Prints every string of the page as JSON, for tests/web/test_strings.py: the two languages of
// i18n.js (strings-en.js, strings-ne.js), the rules page's texts (content.js), and the names and corner indices of every card in
// both languages (cards.js), as a screen reader and the eye get them. Run with Node:
//   node tests/web/strings.mjs teenpatti/web/static/js
import path from "node:path";
import { pathToFileURL } from "node:url";

// i18n.js sets <html lang> and remembers the language: give it just enough of a page.
globalThis.document = { documentElement: { lang: "en", dataset: {} } };

const dir = path.resolve(process.argv[2]);
const load = (name) => import(pathToFileURL(path.join(dir, name)).href);
const i18n = await load("i18n.js");
const content = await load("content.js");
const cards = await load("cards.js");

const deck = [];
for (const rank of "23456789TJQKA") for (const suit of "shdc") deck.push(`${rank}${suit}`);
deck.push("Jk");
const faces = {};
for (const which of ["en", "ne"]) {
  i18n.setLang(which);
  faces[which] = {
    names: deck.map((card) => cards.cardName(card)),
    corners: [..."23456789TJQKA"].map((rank) => cards.rankText(rank)),
    errors: ["rules/show_tie", "no/such_code", "http/502"].map((code) => i18n.errorText(code, "reason")),
  };
}
process.stdout.write(
  JSON.stringify({
    strings: i18n.STRINGS,
    content: {
      RULES: content.RULES,
      RANKING: content.RANKING,
      RUNS_NOTE: content.RUNS_NOTE,
      WORDS: content.WORDS,
      FAQ: content.FAQ,
      TIPS: content.TIPS,
      TIPS_METHOD: content.TIPS_METHOD,
    },
    cards: faces,
  }),
);
