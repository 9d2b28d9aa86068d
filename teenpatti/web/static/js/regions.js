// The parts of the table page drawn again only when their input changed: each region is a pure
// function of a few inputs (parts of the page's state, pagestate.js, or values worked out from
// them), compared by identity with the last drawing's. A region whose inputs are all the same
// is neither built nor compared with the page: where it goes, the page keeps the node it has
// (dom.js `kept`). As unchanged parts of a state stay the same objects from one version to the
// next (versions.js), a move rebuilds the seats it touched and leaves the others alone.

import { kept } from "./dom.js";

/** Whether two lists of inputs hold the same values, each by identity. */
export function sameInputs(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

export class Regions {
  constructor() {
    this.held = new Map(); // key -> {inputs, node}: each region's last drawing
    this.drawn = 0; // how many regions were drawn, and kept, since the page began (for the tests)
    this.kept = 0;
  }

  /**
   * The region `key` for `inputs`: `draw(...inputs)` (a node or null) when an input changed
   * since the last time, else a stand-in that keeps the node drawn then where it is on the page.
   * `draw` must read nothing but its inputs (and the language, which redraws every region).
   */
  region(key, inputs, draw) {
    const had = this.held.get(key);
    if (had && sameInputs(had.inputs, inputs)) {
      const marker = had.node === null ? null : kept(had.node);
      if (had.node === null || marker) {
        this.kept += 1;
        return marker;
      }
    }
    const node = draw(...inputs);
    this.drawn += 1;
    this.held.set(key, { inputs, node });
    return node;
  }

  /** Forget every drawing: the next time, every region is drawn anew (a new language). */
  clear() {
    this.held.clear();
  }
}
