// The end of a hand and of the game: who won each pot and with what, the hands shown, a line about
// the last hand while the next is dealt, and the final standings with "Play again" and "Download
// hands".

import { cardFace, cardsName, handName, sortCards } from "./cards.js";
import { h } from "./dom.js";
import { category, joinNames, num, sentences, t } from "./i18n.js";
import { handNews } from "./happened.js";
import { botBadge, isComputer, seatName } from "./moves.js";
import { againButton } from "./social.js";

/**
 * A finished hand in words: a line per pot saying who won it and why (with which hand, at a show),
 * chips of a bet nobody called as handed back (never as a win), how the hand ended, its side shows
 * and timeouts, and the hands shown. Pure.
 */
export function summary(st) {
  const hand = st.hand;
  const pots = hand.pots || [];
  const won = pots.filter((pot) => !pot.returned);
  const lines = pots.map((pot, i) => {
    if (pot.returned) {
      const seat = pot.winners[0];
      return seat === st.you ? t("result.youBack", { n: pot.amount }) : t("result.back", { name: seatName(st, seat), n: pot.amount });
    }
    const names = pot.winners.map((seat) => seatName(st, seat));
    let text;
    if (pot.winners.length === 1 && pot.winners[0] === st.you) text = t("result.youWin", { n: pot.amount });
    else if (pot.winners.length === 1) text = t("result.wins", { name: names[0], n: pot.amount });
    else text = t("result.share", { names: joinNames(names), n: pot.amount });
    const why = pot.winners.map((seat) => st.seats[seat]).find((row) => row && row.cards && row.category);
    if (why && hand.ended_by !== "last_player") text = t("result.with", { what: text, hand: t(`cat.${why.category}`) });
    if (won.length > 1) text = `${i === 0 ? t("result.main") : t("result.side")}: ${text}`;
    return text;
  });
  const winners = new Set(won.flatMap((pot) => pot.winners));
  const shown = st.seats
    .filter((seat) => seat.cards && seat.dealt)
    .map((seat) => ({ seat: seat.seat, cards: seat.cards, category: seat.category, packed: seat.packed }));
  return {
    number: hand.number,
    title: sentences(lines) || t("result.title", { n: hand.number }),
    lines,
    returned: pots.map((pot) => Boolean(pot.returned)),
    how: hand.ended_by ? t(`result.by.${hand.ended_by}`) : "",
    news: handNews(st).map((item) => item.text),
    winners,
    shown,
    hands: shown
      .filter((row) => !row.packed)
      .map((row) => t("result.hand", { name: seatName(st, row.seat), hand: category(row.category) })),
  };
}

export function result(view, st) {
  const hand = st.hand;
  if (!hand || !hand.finished) {
    const done = view.page.lastFinished;
    if (!done || !hand || done.hand.number !== hand.number - 1) return null;
    const last = summary(done); // written now, in the language of now
    return h(
      "p",
      { class: "last-hand small muted", "data-testid": "last-hand" },
      sentences([`${t("result.title", { n: last.number })}: ${last.title}`, ...last.news]),
    );
  }
  const ended = summary(st);
  return h(
    "section",
    { class: "result", "data-testid": "result", "aria-labelledby": "result-title", tabindex: "-1" },
    h("h2", { id: "result-title" }, t("result.title", { n: hand.number })),
    h(
      "ul",
      { class: "result-pots" },
      ended.lines.map((line, i) =>
        h("li", { "data-key": `p${i}`, "data-testid": "result-line", class: ended.returned[i] ? "returned" : "won" }, line),
      ),
    ),
    ended.how ? h("p", { class: "muted small", "data-testid": "result-how" }, ended.how) : null,
    ended.news.length
      ? h("ul", { class: "result-news small" }, ended.news.map((line, i) => h("li", { "data-key": `n${i}`, "data-testid": "result-news" }, line)))
      : null,
    ended.shown.length
      ? h(
          "ul",
          { class: "shown-hands", "aria-label": t("result.shown") },
          ended.shown.map((row) =>
            h(
              "li",
              {
                "data-key": `h${row.seat}`,
                class: ended.winners.has(row.seat) ? "winner" : row.packed ? "packed" : "",
                "data-testid": "shown-hand",
              },
              h("span", { class: "shown-name" }, seatName(st, row.seat)),
              h("span", { class: "shown-cards", role: "img", "aria-label": cardsName(row.cards) }, sortCards(row.cards).map((c, i) => cardFace(c, "md", `s${i}`))),
              // a packed hand shown (this player's own, or one a side show turned over) says so
              row.packed ? h("span", { class: "shown-packed badge packed", "data-testid": "shown-packed" }, t("seat.packed")) : null,
              h("span", { class: "shown-cat", "data-testid": "shown-category" }, handName(row.category)),
            ),
          ),
        )
      : null,
    st.status === "playing" ? h("p", { class: "next-hand small muted" }, t("table.nextHand")) : null,
  );
}

/** The table's running score across its games (games won, chips won or lost), once a game has
 *  ended: at each game's end, and again in the game that follows. */
export function scoreTable(st) {
  const rows = st.score || [];
  if (!rows.length) return null;
  const signed = (n) => (n > 0 ? `+${num(n)}` : n < 0 ? `−${num(-n)}` : num(0));
  return h(
    "table",
    { class: "standings-table score-table", "data-testid": "score" },
    h("caption", {}, t("end.score")),
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, t("end.player")), h("th", { scope: "col", class: "num" }, t("end.won")), h("th", { scope: "col", class: "num" }, t("end.net"))),
    ),
    h(
      "tbody",
      {},
      rows.map((row) =>
        h(
          "tr",
          { "data-key": `s${row.seat}`, class: row.seat === st.you ? "me" : "", "data-testid": "score-row" },
          h("th", { scope: "row" }, row.seat === st.you ? t("you.name", { name: row.name }) : row.name),
          h("td", { class: "num" }, num(row.won)),
          h("td", { class: "num" }, signed(row.chips)),
        ),
      ),
    ),
  );
}

export function standings(view, st) {
  const rows = st.standings || [];
  const top = rows.filter((row) => row.place === 1);
  const youWin = top.some((row) => row.seat === st.you);
  return h(
    "section",
    { class: "panel standings", "data-testid": "standings", "aria-labelledby": "end-title", tabindex: "-1" },
    h("h2", { id: "end-title" }, t("end.title")),
    h(
      "p",
      { class: "end-winner", "data-testid": "end-winner" },
      youWin ? t("end.youWin") : t("end.winner", { name: joinNames(top.map((row) => seatName(st, row.seat))) }),
    ),
    h(
      "table",
      { class: "standings-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("end.place")), h("th", { scope: "col" }, t("end.player")), h("th", { scope: "col", class: "num" }, t("end.chips")))),
      h(
        "tbody",
        {},
        rows.map((row) =>
          h(
            "tr",
            { "data-key": `r${row.seat}`, class: row.seat === st.you ? "me" : "", "data-testid": "standing" },
            h("td", {}, num(row.place)),
            h(
              "th",
              { scope: "row" },
              row.seat === st.you ? t("you.name", { name: row.name }) : row.name,
              isComputer(st.seats[row.seat]) ? [" ", h("span", { class: "badge bot", "data-testid": "standing-bot" }, botBadge(st))] : null,
            ),
            h(
              "td",
              { class: "num" },
              num(row.chips),
              row.rebuys ? h("span", { class: "small muted rebuys", "data-testid": "standing-rebuys" }, ` (${t("end.rebuys", { n: row.rebuys, net: row.net })})`) : null,
            ),
          ),
        ),
      ),
    ),
    scoreTable(st),
    st.hand && st.hand.finished ? result(view, st) : null,
    h(
      "div",
      { class: "row" },
      againButton(view, st),
      view.hands.downloadButton(null, { small: false }), // the whole game, every card: for teenpatti verify and replay
      h("a", { class: "btn", href: "/", "data-link": "" }, t("end.home")),
    ),
  );
}
