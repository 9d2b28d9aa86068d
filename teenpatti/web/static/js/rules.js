// The rules page: how to play, the hand ranking drawn with cards, the words with their Nepali,
// the questions players ask, and tips with figures from real odds (see content.js).

import { cardFace, handName } from "./cards.js";
import { h } from "./dom.js";
import { lang, num, t } from "./i18n.js";
import { FAQ, RANKING, RANKING_COUNTS, RULES, RUNS_NOTE, TIPS, TIPS_METHOD, WORDS } from "./content.js";

export const SECTIONS = ["rules", "ranking", "words", "faq", "tips"];
const TITLES = { rules: "rules.play", ranking: "rules.ranking", words: "rules.words", faq: "rules.faq", tips: "rules.tips" };

function tr(pair) {
  return pair[lang()] || pair.en;
}

function percent(text) {
  return lang() === "ne" ? text.replace(/[0-9]/g, (d) => "०१२३४५६७८९"[Number(d)]) : text;
}

export function rulesPage(app, section = "rules") {
  const nav = h(
    "nav",
    { class: "tabs", "aria-label": t("rules.tabs") },
    SECTIONS.map((id) =>
      h(
        "a",
        {
          href: `#${id}`,
          class: "tab",
          "data-testid": `tab-${id}`,
          "aria-current": id === section ? "page" : null,
        },
        t(TITLES[id]),
      ),
    ),
  );
  return h(
    "div",
    { class: "rules-page", "data-testid": "rules", "data-section": section },
    h("h1", {}, t("rules.title")),
    nav,
    h(
      "section",
      { id: "sec-rules", class: "panel", "aria-labelledby": "h-rules" },
      h("h2", { id: "h-rules" }, t("rules.play")),
      RULES.map((rule) =>
        h(
          "div",
          { class: "rule", "data-key": rule.id },
          h("h3", {}, tr(rule.title)),
          rule.body.map((p) => h("p", {}, tr(p))),
        ),
      ),
    ),
    h(
      "section",
      { id: "sec-ranking", class: "panel", "aria-labelledby": "h-ranking" },
      h("h2", { id: "h-ranking" }, t("rules.ranking")),
      h(
        "ol",
        { class: "ranking", "data-testid": "ranking" },
        RANKING.map((row, i) =>
          h(
            "li",
            { class: "rank-row" },
            h(
              "div",
              { class: "rank-head" },
              h("span", { class: "rank-no", "aria-hidden": "true" }, num(i + 1)),
              h("strong", {}, handName(row.cat)),
              row.other && tr(row.other) !== t(`cat.${row.cat}`) ? h("span", { class: "muted" }, ` (${tr(row.other)})`) : null,
            ),
            h("div", { class: "rank-cards" }, row.cards.map((c, k) => cardFace(c, "md", `r${k}`))),
            h("p", {}, tr(row)),
            h(
              "p",
              { class: "small muted" },
              t("ranking.count", { n: RANKING_COUNTS[row.cat][0], p: percent(RANKING_COUNTS[row.cat][1]) }),
            ),
          ),
        ),
      ),
      h(
        "div",
        { class: "runs" },
        h(
          "div",
          { class: "runs-cards" },
          RUNS_NOTE.cards.map((cards, i) =>
            h("div", { class: "run", "data-key": `run${i}` }, cards.map((c, k) => cardFace(c, "sm", `q${k}`))),
          ),
        ),
        h("p", {}, tr(RUNS_NOTE)),
      ),
    ),
    h(
      "section",
      { id: "sec-words", class: "panel", "aria-labelledby": "h-words" },
      h("h2", { id: "h-words" }, t("rules.words")),
      h(
        "table",
        { class: "words", "data-testid": "words" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, t("words.word")),
            h("th", { scope: "col" }, t("words.nepali")),
            h("th", { scope: "col" }, t("words.meaning")),
          ),
        ),
        h(
          "tbody",
          {},
          WORDS.map((w) =>
            h(
              "tr",
              {},
              h("th", { scope: "row", lang: "en" }, w.word),
              h("td", { lang: "ne" }, w.ne),
              h("td", {}, lang() === "ne" ? w.neMeaning : w.en),
            ),
          ),
        ),
      ),
    ),
    h(
      "section",
      { id: "sec-faq", class: "panel", "aria-labelledby": "h-faq" },
      h("h2", { id: "h-faq" }, t("rules.faq")),
      FAQ.map((item, i) =>
        h(
          "details",
          { class: "faq", "data-key": `f${i}` },
          h("summary", {}, tr(item.q)),
          h("p", {}, tr(item.a)),
        ),
      ),
    ),
    h(
      "section",
      { id: "sec-tips", class: "panel", "aria-labelledby": "h-tips" },
      h("h2", { id: "h-tips" }, t("rules.tips")),
      h(
        "ul",
        { class: "tips", "data-testid": "tips" },
        TIPS.map((tip) => h("li", {}, tr(tip))),
      ),
      h("p", { class: "small muted method" }, tr(TIPS_METHOD)),
    ),
  );
}
