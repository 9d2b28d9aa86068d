// The table's voice call on this phone: the seated players talk while they play, each phone
// sending its microphone straight to each other phone on the call (WebRTC, one connection per
// pair); the table's socket carries only the signalling (docs/protocol.md, "The voice call").
//
// Opt-in: the microphone is asked for only when "Join the call" is tapped. Of each pair the
// lower seat offers and the higher answers, so two phones never offer to each other at once. A
// page that reloads or reconnects joins again by itself (the wish is kept for the tab). A refused
// microphone, a browser without WebRTC, or a pair that cannot connect is said in a sentence, and
// the game goes on.

import { h } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { seatName } from "./moves.js";

const LEVEL_EVERY = 300; // ms between two readings of who is talking
const SPEAKING = 0.02; // an audio level (0..1) over this is someone talking
const CANDIDATES_AFTER = 120; // ms: candidates gathered meanwhile go in one message
const CANDIDATES_MAX = 16; // the most one signal message may carry
const CONNECT_WAIT = 12000; // ms a pair may take to connect before the page says it cannot (ICE
// with no usable candidate, a TURN server gone, may stay "checking" without ever failing)

function wishKey(code) {
  return `teenpatti.call.${code}`;
}

export function webrtcAvailable() {
  return typeof RTCPeerConnection === "function" && !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
}

export class Call {
  /** view: the TableView (its socket, its render, its announcer). */
  constructor(view) {
    this.view = view;
    this.code = view.code;
    this.roster = []; // [{seat, n, muted}] as the server last said
    this.ice = [];
    this.policy = "all";
    this.peers = new Map(); // seat -> {n, pc, audio, queue, timer, failed}
    this.unheard = new Set(); // seats whose sound this phone has switched off
    this.speaking = new Set();
    this.stream = null;
    this.muted = false;
    this.joining = false;
    this.problem = null; // [key, params]: what went wrong, said in the panel
    this.wanted = this.readWish();
    this.poller = null;
  }

  readWish() {
    try {
      return sessionStorage.getItem(wishKey(this.code)) === "1";
    } catch {
      return false;
    }
  }

  keepWish(on) {
    this.wanted = on;
    try {
      if (on) sessionStorage.setItem(wishKey(this.code), "1");
      else sessionStorage.removeItem(wishKey(this.code));
    } catch {
      /* private mode: the wish lasts as long as the page */
    }
  }

  get joined() {
    return this.stream !== null;
  }

  /** Tapped "Join the call": ask for the microphone, then join. */
  async join() {
    if (this.joining || this.joined) return;
    this.problem = null;
    if (window.isSecureContext === false) {
      this.say("call.needsHttps"); // a phone gives its microphone to HTTPS pages only
      return;
    }
    if (!webrtcAvailable()) {
      this.say("call.noWebrtc");
      return;
    }
    this.joining = true;
    this.view.render();
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
        video: false,
      });
    } catch {
      this.joining = false;
      this.keepWish(false);
      this.say("call.noMic");
      return;
    }
    this.joining = false;
    this.keepWish(true);
    this.applyMute();
    this.send({ type: "call", join: true, muted: this.muted });
    this.startPolling();
    this.view.app.announce(t("call.joined"));
    this.view.render();
  }

  leave() {
    this.keepWish(false);
    this.send({ type: "call", join: false });
    this.hangUp();
    this.view.render();
  }

  /** Off the call on this phone: every connection closed, the microphone let go. */
  hangUp() {
    for (const seat of [...this.peers.keys()]) this.dropPeer(seat);
    if (this.stream) for (const track of this.stream.getTracks()) track.stop();
    this.stream = null;
    this.speaking.clear();
    clearInterval(this.poller);
    this.poller = null;
  }

  toggleMute() {
    this.muted = !this.muted;
    this.applyMute();
    if (this.joined) this.send({ type: "call", join: true, muted: this.muted });
    this.view.render();
  }

  /** Muted, nothing is sent at all (no packets), not silence. */
  applyMute() {
    const track = this.stream ? this.stream.getAudioTracks()[0] : null;
    for (const peer of this.peers.values()) {
      for (const sender of peer.pc.getSenders()) {
        if (sender.track !== (this.muted ? null : track)) sender.replaceTrack(this.muted ? null : track).catch(() => {});
      }
    }
  }

  toggleHear(seat) {
    if (this.unheard.has(seat)) this.unheard.delete(seat);
    else this.unheard.add(seat);
    const peer = this.peers.get(seat);
    if (peer) peer.audio.muted = this.unheard.has(seat);
    this.view.render();
  }

  send(message) {
    return this.view.send(message, { waits: false }); // signalling never waits for a move
  }

  say(key, params = {}) {
    this.problem = [key, params];
    this.view.app.alert(t(key, params));
    this.view.render();
  }

  // ---------------------------------------------------------------- from the server
  /** The socket (re)opened: a phone that was on the call joins again by itself. */
  onOpen() {
    if (!this.wanted) return;
    if (this.joined) {
      for (const seat of [...this.peers.keys()]) this.dropPeer(seat); // the old ones are over
      this.send({ type: "call", join: true, muted: this.muted });
    } else if (webrtcAvailable()) {
      this.join();
    }
  }

  onState(st) {
    if (st.you === null || st.settings.voice === false) {
      if (this.joined) {
        this.hangUp();
        if (st.settings.voice === false) this.problem = ["call.off", {}];
      }
      this.keepWish(this.wanted && st.you !== null && st.settings.voice !== false);
    }
  }

  onMessage(msg) {
    if (msg.type === "call") this.onRoster(msg);
    else if (msg.type === "signal") this.onSignal(msg);
    else if (msg.type === "error") {
      if (msg.code === "call/off" || msg.code === "call/not_seated") {
        this.keepWish(false);
        this.hangUp();
      }
      if (msg.code === "call/no_peer") return; // a seat that left the call meanwhile
      this.problem = ["raw", { text: errorText(msg.code, msg.reason) }];
      this.view.app.alert(this.problem[1].text);
      this.view.render();
    }
  }

  onRoster(msg) {
    this.roster = msg.seats;
    if (msg.ice) this.ice = msg.ice;
    if (msg.policy) this.policy = msg.policy;
    const me = this.view.st ? this.view.st.you : null;
    const onCall = me !== null && this.joined && msg.seats.some((s) => s.seat === me);
    for (const [seat, peer] of [...this.peers]) {
      const now = msg.seats.find((s) => s.seat === seat);
      if (!onCall || !now || now.n !== peer.n) this.dropPeer(seat);
    }
    if (onCall) {
      for (const other of msg.seats) {
        if (other.seat === me || this.peers.has(other.seat)) continue;
        const peer = this.makePeer(other.seat, other.n);
        if (me < other.seat) this.offer(other.seat, peer);
      }
    }
    this.view.render();
  }

  async onSignal(msg) {
    const seat = msg.from;
    const me = this.view.st ? this.view.st.you : null;
    if (!this.joined || me === null) return;
    let peer = this.peers.get(seat);
    if (!peer) {
      const listed = this.roster.find((s) => s.seat === seat);
      if (!listed) return;
      peer = this.makePeer(seat, listed.n);
    }
    try {
      if (msg.kind === "offer") {
        await peer.pc.setRemoteDescription({ type: "offer", sdp: msg.sdp });
        await peer.pc.setLocalDescription();
        this.send({ type: "signal", to: seat, kind: "answer", sdp: peer.pc.localDescription.sdp });
        this.flushEarly(peer);
      } else if (msg.kind === "answer") {
        await peer.pc.setRemoteDescription({ type: "answer", sdp: msg.sdp });
        this.flushEarly(peer);
      } else if (msg.kind === "candidates") {
        for (const found of msg.candidates) {
          if (peer.pc.remoteDescription) await peer.pc.addIceCandidate(found);
          else peer.early.push(found);
        }
      }
    } catch {
      /* a signal for an older connection to that seat: the roster's next n starts anew */
    }
  }

  async flushEarly(peer) {
    const early = peer.early.splice(0);
    for (const found of early) {
      try {
        await peer.pc.addIceCandidate(found);
      } catch {
        /* an older connection's */
      }
    }
  }

  // ---------------------------------------------------------------- connections
  makePeer(seat, n) {
    const pc = new RTCPeerConnection({ iceServers: this.ice, iceTransportPolicy: this.policy === "relay" ? "relay" : "all" });
    const audio = new Audio();
    audio.autoplay = true;
    audio.muted = this.unheard.has(seat);
    audio.dataset.seat = String(seat);
    audio.hidden = true;
    document.body.append(audio); // in the page, where every phone's browser plays it
    const peer = { seat, n, pc, audio, queue: [], timer: null, watch: null, early: [], failed: false };
    this.peers.set(seat, peer);
    const track = this.stream.getAudioTracks()[0];
    if (this.muted) pc.addTransceiver("audio", { direction: "sendrecv" });
    else pc.addTrack(track, this.stream);
    pc.ontrack = (event) => {
      audio.srcObject = event.streams[0] || new MediaStream([event.track]);
      audio.play().catch(() => {});
    };
    pc.onicecandidate = (event) => {
      const found = event.candidate ? event.candidate.toJSON() : { candidate: "" };
      peer.queue.push({ candidate: found.candidate, sdpMid: found.sdpMid ?? null, sdpMLineIndex: found.sdpMLineIndex ?? null });
      if (!event.candidate || peer.queue.length >= CANDIDATES_MAX) this.sendCandidates(peer);
      else if (!peer.timer) peer.timer = setTimeout(() => this.sendCandidates(peer), CANDIDATES_AFTER);
    };
    const failed = () => {
      if (this.peers.get(seat) !== peer || peer.failed || pc.connectionState === "connected") return;
      peer.failed = true;
      this.say("call.failed", { name: this.name(seat) });
    };
    peer.watch = setTimeout(failed, CONNECT_WAIT);
    pc.onconnectionstatechange = () => {
      if (this.peers.get(seat) !== peer) return;
      if (pc.connectionState === "failed") {
        failed();
      } else if (pc.connectionState === "connected" && peer.failed) {
        peer.failed = false;
        this.problem = null;
        this.view.render();
      }
    };
    return peer;
  }

  sendCandidates(peer) {
    clearTimeout(peer.timer);
    peer.timer = null;
    while (peer.queue.length && this.peers.get(peer.seat) === peer) {
      const candidates = peer.queue.splice(0, CANDIDATES_MAX);
      this.send({ type: "signal", to: peer.seat, kind: "candidates", candidates });
    }
  }

  async offer(seat, peer) {
    try {
      await peer.pc.setLocalDescription();
      if (this.peers.get(seat) !== peer) return;
      this.send({ type: "signal", to: seat, kind: "offer", sdp: peer.pc.localDescription.sdp });
    } catch {
      this.say("call.failed", { name: this.name(seat) });
    }
  }

  dropPeer(seat) {
    const peer = this.peers.get(seat);
    if (!peer) return;
    this.peers.delete(seat);
    clearTimeout(peer.timer);
    clearTimeout(peer.watch);
    peer.pc.close();
    peer.audio.srcObject = null;
    peer.audio.remove();
    this.speaking.delete(seat);
  }

  // ---------------------------------------------------------------- who is talking
  startPolling() {
    clearInterval(this.poller);
    this.poller = setInterval(() => this.readLevels(), LEVEL_EVERY);
  }

  async readLevels() {
    const me = this.view.st ? this.view.st.you : null;
    const talking = new Set();
    for (const [seat, peer] of this.peers) {
      try {
        const stats = await peer.pc.getStats();
        stats.forEach((report) => {
          if (report.type === "inbound-rtp" && report.kind === "audio" && (report.audioLevel || 0) > SPEAKING) talking.add(seat);
          if (report.type === "media-source" && report.kind === "audio" && !this.muted && (report.audioLevel || 0) > SPEAKING && me !== null) talking.add(me);
        });
      } catch {
        /* closed meanwhile */
      }
    }
    const changed = talking.size !== this.speaking.size || [...talking].some((s) => !this.speaking.has(s));
    this.speaking = talking;
    if (changed) this.ring();
  }

  /** The speaking ring on each seat (set here between renders; play.js sets it at each). */
  ring() {
    for (const el of document.querySelectorAll("[data-seat]")) {
      if (!el.classList.contains("seat")) continue;
      el.classList.toggle("speaking", this.speaking.has(Number(el.dataset.seat)));
    }
  }

  isSpeaking(seat) {
    return this.speaking.has(seat);
  }

  name(seat) {
    const st = this.view.st;
    return st ? seatName(st, seat) : String(seat);
  }

  stop() {
    this.hangUp();
  }

  // ---------------------------------------------------------------- the panel
  /** The call's panel: a region (regions.js) drawn from the seat, the names at the table and the
   *  call's own state. */
  panel(st) {
    const names = st.seats.map((row) => seatName(st, row.seat)).join("\n");
    const inputs = [st.you, st.settings.voice, names, this.joined, this.muted, this.joining, this.problem, this.roster, [...this.unheard].join()];
    return this.view.regions.region("call", inputs, () => this.draw(st));
  }

  draw(st) {
    if (st.you === null) return null;
    const voiceOn = st.settings.voice !== false;
    const others = this.roster.filter((s) => s.seat !== st.you);
    const problem = this.problem
      ? h("p", { class: "call-problem small", "data-testid": "call-problem" }, this.problem[0] === "raw" ? this.problem[1].text : t(this.problem[0], this.problem[1]))
      : null;
    if (!voiceOn) {
      return h("section", { class: "call", "data-testid": "call", "data-joined": "0" }, h("p", { class: "small muted", "data-testid": "call-off" }, t("call.off")));
    }
    const names = others.map((s) => this.name(s.seat)).join(", ");
    return h(
      "section",
      { class: "call", "data-testid": "call", "data-joined": this.joined ? "1" : "0", "aria-label": t("call.join") },
      this.joined
        ? h(
            "div",
            { class: "row call-controls" },
            h(
              "button",
              { type: "button", class: `btn switch${this.muted ? "" : " on"}`, role: "switch", "aria-checked": this.muted ? "false" : "true", "data-testid": "call-mute", onclick: () => this.toggleMute() },
              t(this.muted ? "call.unmute" : "call.mute"),
            ),
            h("button", { type: "button", class: "btn", "data-testid": "call-leave", onclick: () => this.leave() }, t("call.leave")),
          )
        : h(
            "button",
            { type: "button", class: "btn primary", "data-testid": "call-join", disabled: this.joining, onclick: () => this.join() },
            t("call.join"),
          ),
      others.length ? h("p", { class: "small", "data-testid": "call-roster" }, t("call.on", { names })) : this.joined ? h("p", { class: "small muted" }, t("call.nobody")) : null,
      this.joined && others.length
        ? h(
            "ul",
            { class: "people call-people", "data-testid": "call-people" },
            others.map((s) =>
              h(
                "li",
                { "data-key": `call${s.seat}` },
                h(
                  "button",
                  {
                    type: "button",
                    role: "switch",
                    class: `btn small switch${this.unheard.has(s.seat) ? "" : " on"}`,
                    "aria-checked": this.unheard.has(s.seat) ? "false" : "true",
                    "data-testid": `call-hear-${s.seat}`,
                    onclick: () => this.toggleHear(s.seat),
                  },
                  t("call.listen", { name: this.name(s.seat) }),
                ),
                s.muted ? h("span", { class: "tag" }, t("call.muted", { name: this.name(s.seat) })) : null,
              ),
            ),
          )
        : null,
      problem,
    );
  }
}
