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

// A `patch` turns the state a socket holds into the next one (docs/protocol.md): a list of
// operations ["s", path, value] (set), ["d", path] (delete) and ["a", path, values] (append to a
// list), each on a path of keys and list indexes from the top of the state.

/** An operation that does not fit the state: the socket asks for the whole state again. */
export class PatchError extends Error {}

function place(node, key) {
  if (Array.isArray(node)) {
    if (!Number.isInteger(key) || key < 0 || key > node.length) throw new PatchError(`no place ${key}`);
    return [node.slice(), key < node.length];
  }
  if (node === null || typeof node !== "object" || typeof key !== "string") {
    throw new PatchError(`no place ${key}`);
  }
  return [{ ...node }, Object.hasOwn(node, key)];
}

function applyOp(node, op, path, depth) {
  const key = path[depth];
  const [copy, present] = place(node, key);
  if (depth < path.length - 1) {
    if (!present) throw new PatchError(`no ${key} on the way`);
    copy[key] = applyOp(node[key], op, path, depth + 1);
    return copy;
  }
  const [kind, , value] = op;
  if (kind === "s" && op.length === 3) {
    copy[key] = value;
  } else if (kind === "d" && op.length === 2 && !Array.isArray(copy) && present) {
    delete copy[key];
  } else if (kind === "a" && op.length === 3 && present && Array.isArray(copy[key]) && Array.isArray(value)) {
    copy[key] = copy[key].concat(value);
  } else {
    throw new PatchError(`not an operation: ${JSON.stringify(op).slice(0, 80)}`);
  }
  return copy;
}

/**
 * The state `held` with the patch `msg` applied, as a new object (`held` is left as it is; what
 * no operation touches is shared). Throws PatchError when the patch does not start from `held`'s
 * version or an operation does not fit: then ask for a sync.
 */
export function applyPatch(held, msg) {
  if (!held || held.version !== msg.from || !Array.isArray(msg.ops)) {
    throw new PatchError(`a patch from version ${msg.from} to a state at ${held && held.version}`);
  }
  let state = held;
  for (const op of msg.ops) {
    if (!Array.isArray(op) || !Array.isArray(op[1]) || op[1].length === 0) {
      throw new PatchError("not an operation");
    }
    state = applyOp(state, op, op[1], 0);
  }
  if (state.version !== msg.version) throw new PatchError("the patch did not reach its version");
  return state;
}
