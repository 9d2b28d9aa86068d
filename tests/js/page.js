// Just enough of a browser page for the page's pure modules to load under Node: i18n.js sets
// <html lang> when it loads. Import this first in every test file.
globalThis.document = { documentElement: { lang: "en", dataset: {} } };

export const JS = new URL("../../teenpatti/web/static/js/", import.meta.url);

import { load, problems } from "./schema.js";

/** The schema of what the server sends (docs/schema/server.schema.json, made from the server's types). */
export const SERVER = load("server");
/** The schema of what a client sends (docs/schema/client.schema.json). */
export const CLIENT = load("client");

/** `message` as the schema `root` has it (undefined keys left out, as JSON leaves them), or an error naming what does not fit. */
export function checked(root, message) {
  const found = problems(root, JSON.parse(JSON.stringify(message)));
  if (found.length) throw new Error(`not a message of the protocol: ${found.join("; ")}`);
  return message;
}

/**
 * A state as the server sends it (docs/protocol.md), with `changes` merged over a two-seat hand:
 * checked against the server's schema, so the page's tests run on states the server can send.
 */
export function state(changes = {}, hand = {}) {
  return checked(SERVER, older(changes, hand));
}

/** A state as `state` makes it, unchecked: for a test of what the page does when a field is absent (a state from an older server). */
export function older(changes = {}, hand = {}) {
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
    settings: {
      seats: 2, bots: "medium", turn_seconds: 30, play: "live", late: true, chat: true,
      rules: { preset: "nepal", boot: 10, hands: 20 },
    },
    seats: [seat(0, "Asha"), seat(1, "Bikash")],
    hand: {
      number: 1, of: 20, dealer: 1, to_act: 0, actor: 0, stake: 10, boot: 10, pot: 20, side_show: null, wild: null,
      finished: false, ended_by: null, pots: [], actions: [], deck: "teenpatti-deck/2",
      commitment: "9f2c".repeat(16), secret: null, ...hand,
    },
    legal: [],
    paused: false,
    votes: [],
    chat: [],
    deadline: null,
    now: 1764460800,
    ...changes,
  };
}
