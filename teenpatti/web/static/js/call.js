// The table's voice call on this phone: the seated players talk while they play, each phone
// sending its microphone straight to each other phone on the call (WebRTC, one connection per
// pair); the table's socket carries only the signalling (docs/protocol.md, "The voice call").
//
// Opt-in: the microphone is asked for only when "Join the call" is tapped. Of each pair the
// lower seat offers and the higher answers, so two phones never offer to each other at once. A
// page that reloads or reconnects joins again by itself (the wish is kept for the tab). A refused
// microphone, a browser without WebRTC, or a pair that cannot connect is said in a sentence, and
// the game goes on.
//
// What the page shows of the call (on it or not, muted, who is on it, whose sound is off, who is
// talking, what went wrong) is the page's state (pagestate.js `call`), set by the actions this
// dispatches as the microphone, the server and the connections answer; the connections, the
// microphone's stream and the wish to be on the call are this module's own, outside that state.

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
    this.ice = [];
    this.policy = "all";
    this.peers = new Map(); // seat -> {n, pc, audio, queue, timer, failed}
    this.stream = null;
    this.wanted = this.readWish();
    this.poller = null;
  }

  /** The call's part of the page's state. */
  get part() {
    return this.view.page.call;
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
    if (this.part.joining || this.joined) return;
    if (window.isSecureContext === false) {
      this.say("call.needsHttps"); // a phone gives its microphone to HTTPS pages only
      return;
    }
    if (!webrtcAvailable()) {
      this.say("call.noWebrtc");
      return;
    }
    this.view.dispatch({ type: "call/joining" });
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
        video: false,
      });
    } catch {
      this.keepWish(false);
      this.say("call.noMic");
      return;
    }
    this.keepWish(true);
    this.applyMute();
    this.send({ type: "call", join: true, muted: this.part.muted });
    this.startPolling();
    this.view.app.announce(t("call.joined"));
    this.view.dispatch({ type: "call/joined" });
  }

  leave() {
    this.keepWish(false);
    this.send({ type: "call", join: false });
    this.hangUp();
    this.view.render();
  }

  /** Off the call on this phone: every connection closed, the microphone let go. The store is
   *  told without drawing: the page is drawn by the caller, or not at all once it is left. */
  hangUp() {
    for (const seat of [...this.peers.keys()]) this.dropPeer(seat);
    if (this.stream) for (const track of this.stream.getTracks()) track.stop();
    this.stream = null;
    clearInterval(this.poller);
    this.poller = null;
    this.view.store.dispatch({ type: "call/left" });
  }

  toggleMute() {
    this.view.dispatch({ type: "call/mute" });
    this.applyMute();
    if (this.joined) this.send({ type: "call", join: true, muted: this.part.muted });
  }

  /** Muted, nothing is sent at all (no packets), not silence. */
  applyMute() {
    const track = this.stream && !this.part.muted ? this.stream.getAudioTracks()[0] : null;
    for (const peer of this.peers.values()) {
      for (const sender of peer.pc.getSenders()) {
        if (sender.track !== track) sender.replaceTrack(track).catch(() => {});
      }
    }
  }

  toggleHear(seat) {
    this.view.dispatch({ type: "call/hear", seat });
    const peer = this.peers.get(seat);
    if (peer) peer.audio.muted = this.part.unheard.includes(seat);
  }

  send(message) {
    return this.view.send(message, { waits: false }); // signalling never waits for a move
  }

  say(key, params = {}) {
    this.view.app.alert(t(key, params));
    this.view.dispatch({ type: "call/problem", problem: { key, params } });
  }

  // ---------------------------------------------------------------- from the server
  /** The socket (re)opened: a phone that was on the call joins again by itself. */
  onOpen() {
    if (!this.wanted) return;
    if (this.joined) {
      for (const seat of [...this.peers.keys()]) this.dropPeer(seat); // the old ones are over
      this.send({ type: "call", join: true, muted: this.part.muted });
    } else if (webrtcAvailable()) {
      this.join();
    }
  }

  /** On each state, before it is drawn (the store told without drawing). */
  onState(st) {
    if (st.you === null || st.settings.voice === false) {
      if (this.joined) {
        this.hangUp();
        if (st.settings.voice === false) this.view.store.dispatch({ type: "call/problem", problem: { key: "call.off", params: {} } });
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
      this.view.app.alert(errorText(msg.code, msg.reason));
      this.view.dispatch({ type: "call/problem", problem: { code: msg.code, reason: msg.reason } });
    }
  }

  onRoster(msg) {
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
    this.view.dispatch({ type: "call/roster", seats: msg.seats });
  }

  async onSignal(msg) {
    const seat = msg.from;
    const me = this.view.st ? this.view.st.you : null;
    if (!this.joined || me === null) return;
    let peer = this.peers.get(seat);
    if (!peer) {
      const listed = this.part.roster.find((s) => s.seat === seat);
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
    audio.muted = this.part.unheard.includes(seat);
    audio.dataset.seat = String(seat);
    audio.hidden = true;
    document.body.append(audio); // in the page, where every phone's browser plays it
    const peer = { seat, n, pc, audio, queue: [], timer: null, watch: null, early: [], failed: false };
    this.peers.set(seat, peer);
    const track = this.stream.getAudioTracks()[0];
    if (this.part.muted) pc.addTransceiver("audio", { direction: "sendrecv" });
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
        this.view.dispatch({ type: "call/problem", problem: null });
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
  }

  // ---------------------------------------------------------------- who is talking
  startPolling() {
    clearInterval(this.poller);
    this.poller = setInterval(() => this.readLevels(), LEVEL_EVERY);
  }

  /** Who is talking now, for the rings on their seats (a seat whose peer went loses its ring at
   *  the next reading). */
  async readLevels() {
    const me = this.view.st ? this.view.st.you : null;
    const muted = this.part.muted;
    const talking = new Set();
    for (const [seat, peer] of this.peers) {
      try {
        const stats = await peer.pc.getStats();
        stats.forEach((report) => {
          if (report.type === "inbound-rtp" && report.kind === "audio" && (report.audioLevel || 0) > SPEAKING) talking.add(seat);
          if (report.type === "media-source" && report.kind === "audio" && !muted && (report.audioLevel || 0) > SPEAKING && me !== null) talking.add(me);
        });
      } catch {
        /* closed meanwhile */
      }
    }
    if (this.joined) this.view.dispatch({ type: "call/speaking", seats: [...talking] }); // else hung up meanwhile
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
   *  call's part of the page's state (who is talking aside: that is drawn on the seats). */
  panel(st) {
    const names = st.seats.map((row) => seatName(st, row.seat)).join("\n");
    const { joined, muted, joining, problem, roster, unheard } = this.part;
    const inputs = [st.you, st.settings.voice, names, joined, muted, joining, problem, roster, unheard];
    return this.view.regions.region("call", inputs, () => this.draw(st, this.part));
  }

  draw(st, part) {
    if (st.you === null) return null;
    const voiceOn = st.settings.voice !== false;
    const others = part.roster.filter((s) => s.seat !== st.you);
    const said = part.problem && (part.problem.code !== undefined ? errorText(part.problem.code, part.problem.reason) : t(part.problem.key, part.problem.params));
    const problem = said ? h("p", { class: "call-problem small", "data-testid": "call-problem" }, said) : null;
    if (!voiceOn) {
      return h("section", { class: "call", "data-testid": "call", "data-joined": "0" }, h("p", { class: "small muted", "data-testid": "call-off" }, t("call.off")));
    }
    const names = others.map((s) => this.name(s.seat)).join(", ");
    return h(
      "section",
      { class: "call", "data-testid": "call", "data-joined": part.joined ? "1" : "0", "aria-label": t("call.join") },
      part.joined
        ? h(
            "div",
            { class: "row call-controls" },
            h(
              "button",
              { type: "button", class: `btn switch${part.muted ? "" : " on"}`, role: "switch", "aria-checked": part.muted ? "false" : "true", "data-testid": "call-mute", onclick: () => this.toggleMute() },
              t(part.muted ? "call.unmute" : "call.mute"),
            ),
            h("button", { type: "button", class: "btn", "data-testid": "call-leave", onclick: () => this.leave() }, t("call.leave")),
          )
        : h(
            "button",
            { type: "button", class: "btn primary", "data-testid": "call-join", disabled: part.joining, onclick: () => this.join() },
            t("call.join"),
          ),
      others.length ? h("p", { class: "small", "data-testid": "call-roster" }, t("call.on", { names })) : part.joined ? h("p", { class: "small muted" }, t("call.nobody")) : null,
      part.joined && others.length
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
                    class: `btn small switch${part.unheard.includes(s.seat) ? "" : " on"}`,
                    "aria-checked": part.unheard.includes(s.seat) ? "false" : "true",
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
