// What the browser remembers: the seat token of each table (so a reload puts you back in your
// seat), your name, the last game settings and the sound switch. Nothing here leaves the phone
// except the token, and only to the table it belongs to.

const SEATS = "tp.seats";
const NAME = "tp.name";
const PREFS = "tp.prefs";
const MUTE = "tp.mute";
const LAST = "tp.last";
const GONE = "tp.gone";

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode or full: the seat is kept for this page only */
  }
}

export function seatFor(code) {
  const seats = read(SEATS, {});
  return seats[code] || null;
}

export function saveSeat(code, token, seat) {
  const seats = read(SEATS, {});
  seats[code] = { token, seat, at: Date.now() };
  // keep the 20 most recent tables
  const keep = Object.entries(seats)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, 20);
  write(SEATS, Object.fromEntries(keep));
  write(LAST, code);
}

/** Every table this phone holds a seat at, the most recent first: [{code, token, seat, at}]. */
export function savedTables() {
  return Object.entries(read(SEATS, {}))
    .map(([code, entry]) => ({ code, ...entry }))
    .sort((a, b) => b.at - a.at);
}

export function forgetSeat(code) {
  const seats = read(SEATS, {});
  delete seats[code];
  write(SEATS, seats);
  if (read(LAST, null) === code) write(LAST, null);
}

/** Keep the token of a seat this phone lost at `code` (it left or was removed): sent when it sits
 *  down there again, so a removal holds whatever name is typed. The five latest are kept. */
export function rememberGone(code, token) {
  const gone = read(GONE, {});
  gone[code] = token;
  write(GONE, Object.fromEntries(Object.entries(gone).slice(-5)));
}

/** The token this phone last held at `code` and lost, or null. */
export function goneToken(code) {
  return read(GONE, {})[code] || null;
}

export function lastTable() {
  const code = read(LAST, null);
  return code && seatFor(code) ? code : null;
}

export function forgetLast() {
  write(LAST, null);
}

export function savedName() {
  return read(NAME, "");
}

export function saveName(name) {
  write(NAME, name);
}

export function prefs() {
  return read(PREFS, {});
}

export function savePrefs(value) {
  write(PREFS, value);
}

export function muted() {
  return read(MUTE, false);
}

export function setMuted(value) {
  write(MUTE, Boolean(value));
}
