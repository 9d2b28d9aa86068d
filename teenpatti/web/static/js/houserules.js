// The house rules as a host sets them: which group of the create form each option of the server's
// catalogue (GET /api/rules) goes in, which values the form offers, when an option matters at all,
// and the checks the server makes before it opens a table (teenpatti.engine.rules.Rules.check and
// the table's own limit on hands), so the form refuses what the server would refuse, in words.
// No imports: tests/web/test_house_form.py runs these checks under Node against the engine's.

/** The groups of the form's house rules, in order. An option the catalogue has and no group names
 *  goes in "other", so a new option appears on the form by itself. */
export const GROUPS = [
  ["game", ["starting_chips", "direction"]],
  ["bets", ["bets", "range_max_stakes", "stake_cap_boots", "pot_limit_boots", "blind_turns_max", "see_anytime"]],
  ["show", ["show_tie", "show_cost", "show_seen_vs_blind", "show_after_bet"]],
  ["sideshow", ["sideshow", "sideshow_all_seen"]],
  ["ranking", ["a23", "suits_break_ties", "two_three_five"]],
  ["wild", ["variant", "fixed_rank", "muflis"]],
  ["allin", ["all_in"]],
  ["rebuy", ["rebuy_chips", "rebuys_max", "rebuy_until_hand"]],
];

/** Options the form sets at its top, outside the house rules. */
export const ON_TOP = ["hands", "boot"];

/** Values the server still reads but the form does not offer (`variant: muflis` is the old
 *  spelling of `muflis: true`). */
const NOT_OFFERED = { variant: ["muflis"] };

/** The house-rule groups for a catalogue: [group, keys] with the catalogue's own options only. */
export function groups(cat) {
  const known = new Set([...ON_TOP, ...GROUPS.flatMap(([, keys]) => keys)]);
  const out = GROUPS.map(([group, keys]) => [group, keys.filter((key) => key in cat.options)]).filter(
    ([, keys]) => keys.length,
  );
  const other = Object.keys(cat.options).filter((key) => !known.has(key));
  if (other.length) out.push(["other", other]);
  return out;
}

/** The values a menu offers for an option at a preset, or null when it is a number to type. */
export function offered(key, preset, cat) {
  const p = cat.presets[preset];
  if (p && p.only[key]) return p.only[key];
  const option = cat.options[key];
  if (!option || !option.values) return null;
  const hidden = NOT_OFFERED[key] || [];
  return option.values.filter((value) => !hidden.includes(value));
}

/** Whether an option matters given the others (a hidden option is left to the preset). */
export function relevant(key, options) {
  if (key === "range_max_stakes") return options.bets === "range";
  if (key === "fixed_rank") return options.variant === "fixed_rank";
  if (key === "sideshow_all_seen") return options.sideshow !== "off";
  if (key === "rebuys_max" || key === "rebuy_until_hand") return options.rebuy_chips !== null && options.rebuy_chips !== undefined;
  return true;
}

const NEPALI_DIGITS = "०१२३४५६७८९";

/** A whole number typed in either language's digits ("१,०००", "1000", " 50 "); NaN otherwise and
 *  null for an empty field. */
export function parseWhole(text) {
  const plain = String(text)
    .replace(/[०-९]/g, (d) => String(NEPALI_DIGITS.indexOf(d)))
    .replace(/[\s,]/g, "");
  if (plain === "") return null;
  return /^\d{1,9}$/.test(plain) ? Number(plain) : Number.NaN;
}

/** What the server would refuse in these options (a preset's full set, as the form holds them):
 *  {key: [problem, params]} with one problem per option; {} when the table can open.
 *  Problems: whole, min, max, only, range, fixed_rank, below_boot, pot_limit, rebuy, until,
 *  sideshow. */
export function problems(options, preset, cat) {
  const out = {};
  const flag = (key, problem, params = {}) => {
    if (!(key in out)) out[key] = [problem, params];
  };
  const p = cat.presets[preset];
  for (const [key, option] of Object.entries(cat.options)) {
    if (!(key in options)) continue;
    const value = options[key];
    const only = p && p.only[key];
    if (option.kind === "int") {
      if (value === null) {
        if (!option.null) flag(key, "whole");
      } else if (!Number.isInteger(value)) flag(key, "whole");
      else if (only && !only.includes(value)) flag(key, "only", { values: only });
      else if (value < option.min) flag(key, "min", { n: option.min });
      else if (option.max !== undefined && value > option.max) flag(key, "max", { n: option.max });
    } else if (only ? !only.includes(value) : !option.values.includes(value)) {
      flag(key, "only", { values: only || option.values });
    }
  }
  // the checks between options, as Rules.check makes them (those whose options these are)
  const o = options;
  const has = (...keys) => keys.every((key) => key in o);
  if (has("starting_chips", "boot") && o.starting_chips < o.boot) flag("starting_chips", "below_boot", { boot: o.boot });
  if (has("range_max_stakes", "bets") && o.range_max_stakes !== 2 && o.bets !== "range") flag("range_max_stakes", "range");
  if (has("fixed_rank", "variant") && o.fixed_rank !== "2" && o.variant !== "fixed_rank") flag("fixed_rank", "fixed_rank");
  if (has("all_in", "pot_limit_boots") && o.all_in === "two_left" && o.pot_limit_boots !== null) flag("pot_limit_boots", "pot_limit");
  if (has("rebuy_chips", "rebuys_max", "rebuy_until_hand") && o.rebuy_chips === null) {
    if (o.rebuys_max !== 1) flag("rebuys_max", "rebuy");
    else if (o.rebuy_until_hand) flag("rebuy_until_hand", "rebuy");
  }
  if (has("rebuy_until_hand", "hands") && o.rebuy_until_hand !== null && o.rebuy_until_hand > o.hands) flag("rebuy_until_hand", "until", { n: o.hands });
  if (has("sideshow", "sideshow_all_seen") && o.sideshow === "off" && o.sideshow_all_seen) flag("sideshow_all_seen", "sideshow");
  return out;
}

/** The options to send: those that differ from the preset, leaving out what does not matter. */
export function changes(options, preset, cat) {
  const base = cat.presets[preset].options;
  const out = {};
  for (const [key, value] of Object.entries(options)) {
    if (key in base && relevant(key, options) && value !== base[key]) out[key] = value;
  }
  return out;
}

/** The full set the server will play: the preset's options, these changes over them, and what
 *  the server sets itself (no side show: no all-seen condition). */
export function played(chosen, preset, cat) {
  const out = { ...cat.presets[preset].options, ...chosen };
  if (out.sideshow === "off" && !("sideshow_all_seen" in chosen)) out.sideshow_all_seen = false;
  return out;
}
