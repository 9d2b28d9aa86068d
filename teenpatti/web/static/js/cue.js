// The cue when your turn comes: a short two-note chime (unless muted) and a vibration where the
// phone allows it. Browsers only let a page make sound after a tap, so the audio is unlocked on
// the first touch.

import { muted, setMuted } from "./store.js";

let audio = null;
let isMuted = muted();

function unlock() {
  if (audio) {
    if (audio.state === "suspended") audio.resume().catch(() => {});
    return;
  }
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    audio = new Ctx();
  } catch {
    audio = null;
  }
}

window.addEventListener("pointerdown", unlock, { passive: true });
window.addEventListener("keydown", unlock);

function tone(freq, start, length) {
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = "sine";
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.25, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(audio.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

export function isSoundMuted() {
  return isMuted;
}

export function setSoundMuted(value) {
  isMuted = Boolean(value);
  setMuted(isMuted);
}

/** Your turn: chime and buzz. Returns what it did, for the tests. */
export function yourTurn() {
  const did = [];
  if (!isMuted && audio && audio.state !== "closed") {
    try {
      const now = audio.currentTime + 0.01;
      tone(660, now, 0.14);
      tone(880, now + 0.12, 0.2);
      did.push("sound");
    } catch {
      /* no sound today */
    }
  }
  // Chrome refuses (and complains) before the first tap on the page, e.g. just after a reload.
  const active = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (typeof navigator.vibrate === "function" && active) {
    try {
      if (navigator.vibrate([90, 60, 90])) did.push("vibrate");
    } catch {
      /* not allowed */
    }
  }
  document.documentElement.dataset.cue = String(Number(document.documentElement.dataset.cue || 0) + 1);
  return did;
}
