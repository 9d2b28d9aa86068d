// The table's sounds and buzzes: a card dealt, chips going in, your turn, a pot won. Every sound is
// made here with WebAudio (oscillators and a burst of noise shaped by an envelope), so the page
// ships no recorded sound files (docs/design.md, "Sound and motion"). The mute switch silences
// sound and vibration alike. Browsers only let a page make sound after a tap, so the audio is
// unlocked on the first touch. Nothing here waits: each call schedules its sound and returns.

import { muted, setMuted } from "./store.js";

let audio = null;
let isMuted = muted();
let noise = null; // one short buffer of white noise, made once

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

function tone(freq, start, length, type = "sine", peak = 0.25) {
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(peak, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(audio.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A card landing: 50 ms of noise through a band-pass filter, falling away fast. */
function flick(start) {
  if (!noise) {
    noise = audio.createBuffer(1, Math.ceil(audio.sampleRate * 0.05), audio.sampleRate);
    const data = noise.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 2;
  }
  const src = audio.createBufferSource();
  src.buffer = noise;
  const band = audio.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = 2400;
  band.Q.value = 0.8;
  const gain = audio.createGain();
  gain.gain.value = 0.5;
  src.connect(band).connect(gain).connect(audio.destination);
  src.start(start);
}

const SOUNDS = {
  /** `count` cards, `gap` seconds apart. */
  deal(now, { count = 3, gap = 0.09 } = {}) {
    for (let i = 0; i < count; i++) flick(now + i * gap);
  },
  /** Two chips touching. */
  chips(now) {
    tone(2350, now, 0.06, "triangle", 0.12);
    tone(3100, now + 0.05, 0.08, "triangle", 0.1);
  },
  /** Your turn: a rising two-note chime. */
  turn(now) {
    tone(660, now, 0.14);
    tone(880, now + 0.12, 0.2);
  },
  /** A pot won: a short rising arpeggio. */
  win(now) {
    [523, 659, 784, 1047].forEach((freq, i) => tone(freq, now + i * 0.09, 0.22, "sine", 0.2));
  },
};

const BUZZ = { turn: [90, 60, 90], win: [60, 40, 60, 40, 140] };

export function isSoundMuted() {
  return isMuted;
}

export function setSoundMuted(value) {
  isMuted = Boolean(value);
  setMuted(isMuted);
}

/** What this page played, newest last ("sound:deal", "vibrate:win"): the tests read it. */
const played = [];
function record(what) {
  played.push(what);
  if (played.length > 40) played.shift();
  document.documentElement.dataset.played = played.join(" ");
}

/**
 * Play cue `kind` (deal, chips, turn, win) unless muted, with a buzz for turn and win where the
 * phone allows it; returns what it did.
 */
export function cue(kind, options = {}) {
  const did = [];
  if (isMuted) return did;
  if (audio && audio.state !== "closed" && SOUNDS[kind]) {
    try {
      SOUNDS[kind](audio.currentTime + 0.01, options);
      did.push("sound");
      record(`sound:${kind}`);
    } catch {
      /* no sound today */
    }
  }
  // Chrome refuses (and complains) before the first tap on the page, e.g. just after a reload.
  const active = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  if (BUZZ[kind] && typeof navigator.vibrate === "function" && active) {
    try {
      if (navigator.vibrate(BUZZ[kind])) {
        did.push("vibrate");
        record(`vibrate:${kind}`);
      }
    } catch {
      /* not allowed */
    }
  }
  return did;
}

/** Your turn: chime and buzz. */
export function yourTurn() {
  const did = cue("turn");
  document.documentElement.dataset.cue = String(Number(document.documentElement.dataset.cue || 0) + 1);
  return did;
}
