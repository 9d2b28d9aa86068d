// Just enough of a browser page for the page's pure modules to load under Node: i18n.js sets
// <html lang> when it loads. Import this first in every test file.
globalThis.document = { documentElement: { lang: "en", dataset: {} } };

export const JS = new URL("../../teenpatti/web/static/js/", import.meta.url);

/** A state as the server sends it (docs/protocol.md), with `changes` merged over a two-seat hand. */
export function state(changes = {}, hand = {}) {
  const seat = (i, name) => ({
    seat: i, name, bot: false, host: i === 0, person: true, connected: true, chips: 990, put_in: 10,
    dealt: true, packed: false, seen: false, all_in: false, cards: null, category: null,
  });
  return {
    type: "state",
    version: 10,
    code: "K7WQ3M",
    status: "playing",
    you: 0,
    settings: { seats: 2, bots: "medium", turn_seconds: 30, rules: { preset: "nepal", boot: 10, hands: 20 } },
    seats: [seat(0, "Asha"), seat(1, "Bikash")],
    hand: {
      number: 1, of: 20, dealer: 1, actor: 0, stake: 10, boot: 10, pot: 20, side_show: null, wild: null,
      finished: false, ended_by: null, pots: [], actions: [], ...hand,
    },
    legal: [],
    deadline: null,
    ...changes,
  };
}
