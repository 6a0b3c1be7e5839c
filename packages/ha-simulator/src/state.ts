import type { CompressedState, CompressedStateDiff, HassContext, HassState } from "./common/index.js";
import { dict } from "./common/index.js";
import { isoTime } from "./time.js";

/**
 * One immutable state, as HA keeps it: the wire object plus its times in
 * milliseconds, so diffs and compressed forms need no date parsing.
 */
export interface SimState {
  readonly wire: HassState;
  readonly changedMs: number;
  readonly updatedMs: number;
}

export function makeState(o: {
  entityId: string;
  state: string;
  attributes: Record<string, unknown>;
  changedMs: number;
  updatedMs: number;
  context: HassContext;
}): SimState {
  const updated = isoTime(o.updatedMs);
  return {
    wire: {
      entity_id: o.entityId,
      state: o.state,
      attributes: o.attributes,
      last_changed: o.changedMs === o.updatedMs ? updated : isoTime(o.changedMs),
      last_reported: updated,
      last_updated: updated,
      context: o.context,
    },
    changedMs: o.changedMs,
    updatedMs: o.updatedMs,
  };
}

/** `c` is just the context id when nothing else is set, like HA does. */
export function compressContext(c: HassContext): CompressedState["c"] {
  return c.parent_id === null && c.user_id === null ? c.id : { id: c.id, parent_id: c.parent_id, user_id: c.user_id };
}

export function compressState(s: SimState): CompressedState {
  const out: CompressedState = { s: s.wire.state, a: s.wire.attributes, c: compressContext(s.wire.context), lc: s.changedMs / 1000 };
  if (s.updatedMs !== s.changedMs) out.lu = s.updatedMs / 1000;
  return out;
}

/** The `c` entry for one entity in a `subscribe_entities` change message (HA's `_state_diff`). */
export function diffStates(oldS: SimState, newS: SimState): CompressedStateDiff {
  const add = dict<unknown>();
  const diff: CompressedStateDiff = { "+": add };
  if (oldS.wire.state !== newS.wire.state) add.s = newS.wire.state;
  if (oldS.changedMs !== newS.changedMs) add.lc = newS.changedMs / 1000;
  else if (oldS.updatedMs !== newS.updatedMs) add.lu = newS.updatedMs / 1000;

  const oc = oldS.wire.context;
  const nc = newS.wire.context;
  let ctx: Record<string, unknown> | string | undefined;
  if (oc.parent_id !== nc.parent_id) ctx = { parent_id: nc.parent_id };
  if (oc.user_id !== nc.user_id) ctx = { ...(ctx as object | undefined), user_id: nc.user_id };
  if (oc.id !== nc.id) ctx = ctx === undefined ? nc.id : { ...(ctx as object), id: nc.id };
  if (ctx !== undefined) add.c = ctx;

  const oa = oldS.wire.attributes;
  const na = newS.wire.attributes;
  if (oa !== na) {
    let changed: Record<string, unknown> | undefined;
    for (const key in na) {
      if (!Object.hasOwn(oa, key) || !sameValue(oa[key], na[key])) (changed ??= dict())[key] = na[key];
    }
    if (changed) add.a = changed;
    const removed = Object.keys(oa).filter((k) => !Object.hasOwn(na, k));
    if (removed.length > 0) diff["-"] = { a: removed };
  }
  return diff;
}

/** Structural equality for JSON values, which is what Python's `!=` on attributes compares. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
