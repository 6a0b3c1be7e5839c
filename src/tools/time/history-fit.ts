import { MAX_BUCKETS } from "./buckets.js";
import { largestFitting, more, tokensOf } from "./budget.js";
import { entityLine, entityOut } from "./history-output.js";
import type { HistoryEntityOut } from "./history-schema.js";
import type { EntityHistory } from "./history-summary.js";
import { plural } from "./words.js";

/** How much of each list a result keeps; lists keep their most recent items. */
interface Keep {
  /** Raw changes of numeric entities (their buckets tell the story). */
  numericChanges: number;
  changes: number;
  buckets: number;
  entities: number;
}

interface Fitted {
  narrative: string;
  start: string;
  end: string;
  entities: HistoryEntityOut[];
  truncated: boolean;
}

/**
 * The history answer within `maxTokens`. What is cut, in order, until it
 * fits: the raw changes of numeric entities, then the oldest changes of the
 * others, then buckets, then whole entities from the end. The narrative says
 * what was cut and how to get it.
 */
export function fitHistory(o: {
  entities: EntityHistory[];
  maxTokens: number;
  header: string;
  notes: string[];
  at: { now: number; zone: string; toNow: boolean };
  frame: { start: string; end: string };
  iso: (ms: number) => string;
}): Fitted {
  const most = (pick: (e: EntityHistory) => number) => Math.max(0, ...o.entities.map(pick));
  const numericChanges = most((e) => (e.numeric ? e.held.length : 0));
  const changes = most((e) => (e.numeric ? 0 : e.held.length));
  const full: Keep = { numericChanges, changes, buckets: MAX_BUCKETS, entities: o.entities.length };

  const build = (keep: Keep): Fitted => {
    const kept = o.entities.slice(0, keep.entities);
    const cuts: string[] = [];
    const cutNumeric = kept.filter((e) => e.numeric && e.held.length > keep.numericChanges);
    if (cutNumeric.length) cuts.push(keep.numericChanges === 0 ? "the raw changes of numbers (their buckets summarise them)" : `the changes of numbers but the last ${keep.numericChanges}`);
    const cutOther = kept.filter((e) => !e.numeric && e.held.length > keep.changes);
    const counts = cutOther.map((e) => `${e.entityId} (${e.held.length})`).join(", ");
    if (cutOther.length) cuts.push(keep.changes === 0 ? `the changes of ${counts}` : `the changes but the last ${keep.changes} of ${counts}`);
    if (keep.buckets < MAX_BUCKETS && kept.some((e) => (e.numeric?.buckets.length ?? 0) > keep.buckets)) cuts.push(keep.buckets === 0 ? "buckets" : `buckets but the last ${keep.buckets}`);
    const dropped = o.entities.slice(keep.entities);
    if (dropped.length) cuts.push(`${plural(dropped.length, "entity", "entities")}: ${dropped.map((e) => e.entityId).join(", ")}`);
    const lines = [o.header, ...kept.map((e) => `- ${entityLine(e, o.at)}`), ...o.notes];
    if (cuts.length) lines.push(`Cut to fit ${o.maxTokens} tokens: ${cuts.join("; ")}. ${more("a shorter period or fewer entities")}`);
    return {
      narrative: lines.join("\n"),
      ...o.frame,
      entities: kept.map((e) => entityOut(e, { keepChanges: e.numeric ? keep.numericChanges : keep.changes, keepBuckets: keep.buckets, iso: o.iso, now: o.at.now })),
      truncated: cuts.length > 0,
    };
  };
  const fits = (keep: Keep) => tokensOf(build(keep)) <= o.maxTokens;

  if (fits(full)) return build(full);
  let keep = full;
  for (const field of CUT_ORDER) {
    const floor = FLOOR[field];
    const n = largestFitting(floor, keep[field], (v) => fits({ ...keep, [field]: v }));
    if (n !== undefined) return build({ ...keep, [field]: n });
    keep = { ...keep, [field]: floor };
  }
  // Even one entity without lists is over the budget: it is still the least that answers.
  return build(keep);
}

/** What is cut first, and how far each can go. */
const CUT_ORDER: (keyof Keep)[] = ["numericChanges", "changes", "buckets", "entities"];
const FLOOR: Record<keyof Keep, number> = { numericChanges: 0, changes: 0, buckets: 0, entities: 1 };
