// The order of incoming states. The server sends each socket one state per table version, in
// order (docs/protocol.md); a state older than the one shown is ignored, and one that skips
// versions asks for the whole state again instead of being shown out of turn.

/**
 * Where a state with `version` stands against the `shown` version (null: nothing shown yet, or
 * the socket has just said hello again): "apply" (the next version, or the same one with fresh
 * presence), "stale" (older: ignore it) or "gap" (versions were skipped: ask for a sync).
 */
export function placeOf(shown, version) {
  if (shown === null || shown === undefined) return "apply";
  if (version < shown) return "stale";
  return version <= shown + 1 ? "apply" : "gap";
}
