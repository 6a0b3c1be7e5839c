import { createHash } from "node:crypto";
import { HaRestError, type CallerHa } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import type { AutomationSaveAction } from "../../store/index.js";
import { fail, ok, type ToolOutcome } from "../tool.js";
import { checkAutomation, problemList } from "./check.js";
import { ordered, sameConfig } from "./normalize.js";
import { automationWithId } from "./resolve.js";
import { configPath, savedConfig } from "./traces.js";

/** How long a save waits for Home Assistant to load the automation it wrote (HA reloads it after answering). */
const APPEAR_TRIES = 50;
const APPEAR_EVERY_MS = 100;

/**
 * A draft ready to be written: checked, with the id it is written under and
 * the exact config that is posted. A new automation gets an id as HA's
 * editor makes one (the time in milliseconds), unless `approved` already
 * chose it.
 */
export async function prepareSave(args: { ha: CallerHa; index: HomeIndex; given: Record<string, unknown> | string; id?: string; approved?: AutomationSaveAction; now: () => number }): Promise<ToolOutcome<AutomationSaveAction>> {
  const check = await checkAutomation({ ha: args.ha, index: args.index, given: args.given, ...(args.id ?? args.approved?.id ? { id: (args.id ?? args.approved?.id)! } : {}) });
  if (!check.valid) {
    return fail("invalid_automation", `Not saved: ${problemList(check.problems)} Fix the draft and check it with automation_check.`);
  }
  const id = check.id ?? (await freshId(args.ha, args.now));
  if (args.approved && !unchangedSince(args.approved, check.saved)) return fail("changed_since_approval", changedMessage(args.approved));
  const config = ordered({ ...check.normalized, id });
  return ok({ kind: "automation_save", id, created: check.saved === null, entityId: automationWithId(args.index, id)?.entityId ?? null, config, diff: check.changes ?? null, before: fingerprint(check.saved) });
}

/** What was saved under an id, as a fingerprint: the same config read twice gives the same one, whatever its key order. */
export function fingerprint(saved: unknown): string | null {
  if (saved === null || saved === undefined) return null;
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v !== null && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  return createHash("sha256").update(JSON.stringify(canonical(saved))).digest("base64url");
}

/** Whether what is saved now is what the person saw when they said yes (a record without a fingerprint cannot tell, and is taken as it was). */
const unchangedSince = (approved: AutomationSaveAction, saved: unknown): boolean => approved.before === undefined || fingerprint(saved) === approved.before;

function changedMessage(approved: AutomationSaveAction): string {
  const what = approved.entityId ?? `with id ${approved.id}`;
  return `Not saved: the automation ${what} was ${approved.before === null ? "created" : "changed"} in Home Assistant after a person approved this save, and writing it now would overwrite that edit. Nothing was written. Read it with automation_inspect, and ask again to save the config you want: a new approval shows the changes against what is saved now.`;
}

/** An id no saved automation has: HA's editor uses the time in milliseconds. */
async function freshId(ha: CallerHa, now: () => number): Promise<string> {
  for (let n = now(); ; n++) if ((await savedConfig(ha, "automation", String(n))) === null) return String(n);
}

/** Whether `draft` is exactly the save a person approved: same id, same config. */
export const isApprovedSave = (approved: unknown, draft: AutomationSaveAction): boolean => {
  const a = approved as Partial<AutomationSaveAction> | undefined;
  return a?.kind === "automation_save" && a.id === draft.id && sameConfig(a.config, draft.config);
};

export interface SaveResult {
  summary: string;
  id: string;
  entity_id: string | null;
  created: boolean;
  state: string | null;
}

/**
 * Writes the config (`POST config/automation/config/<id>`): Home Assistant
 * validates it, writes it and reloads that automation after it answers, so
 * the entity is looked for until it appears. Its refusal is a value.
 */
export async function writeSave(args: { ha: CallerHa; index: HomeIndex; save: AutomationSaveAction; before?: string }): Promise<ToolOutcome<SaveResult>> {
  const { save } = args;
  try {
    await args.ha.restPost(configPath("automation", save.id), save.config);
  } catch (err) {
    if (err instanceof HaRestError && err.status === 400) return fail("invalid_automation", `Home Assistant refused the automation: ${haMessage(err)}. Nothing was saved.`);
    throw err;
  }
  return ok(await confirm(args.index, save, args.before));
}

/** The save as it stands in the home now: the entity Home Assistant made of it, and whether it is on. */
export async function confirm(index: HomeIndex, save: AutomationSaveAction, before = ""): Promise<SaveResult> {
  let ref = automationWithId(index, save.id);
  for (let i = 0; !ref && i < APPEAR_TRIES; i++) {
    await new Promise((r) => setTimeout(r, APPEAR_EVERY_MS));
    ref = automationWithId(index, save.id);
  }
  const what = `${save.created ? "Created" : "Saved"} the automation ${String(save.config.alias ?? save.id)} (id ${save.id})`;
  const where = ref
    ? `; it is ${ref.entityId}, and it is ${ref.state ?? "unknown"}${ref.state === "off" ? " (automation.turn_on turns it on)" : ""}.`
    : "; Home Assistant has not loaded it yet, so it has no entity so far: look again in a moment.";
  return { summary: `${before}${what}${where}`, id: save.id, entity_id: ref?.entityId ?? null, created: save.created, state: ref?.state ?? null };
}

/** HA's config views say what was wrong as `{"message": "Message malformed: …"}`. */
function haMessage(err: HaRestError): string {
  try {
    const body = JSON.parse(err.body ?? "") as { message?: unknown };
    if (typeof body.message === "string") return body.message;
  } catch {
    // Not JSON: the error's own text says it.
  }
  return err.message;
}

/**
 * After a restart cut a save short (its intent journaled, its result not):
 * the approved config is either saved under its id already, or not yet.
 * Writing the same config under the same id twice changes nothing, so the
 * save is finished if it has not happened, and never repeated if it has;
 * but only while what is saved is what the person saw when asked: an edit
 * made in Home Assistant in the meantime is refused, never overwritten.
 */
export async function settleSave(args: { ha: CallerHa; index: HomeIndex; approved: AutomationSaveAction }): Promise<ToolOutcome<SaveResult>> {
  const saved = await savedConfig(args.ha, "automation", args.approved.id);
  if (sameConfig(saved, args.approved.config)) return ok(await confirm(args.index, args.approved, "It was saved before HA Agent restarted. "));
  // Not saved yet: only while what is saved is still what the person saw, as the first attempt checks.
  if (!unchangedSince(args.approved, saved)) return fail("changed_since_approval", changedMessage(args.approved));
  return writeSave({ ha: args.ha, index: args.index, save: args.approved, before: "HA Agent restarted before the save; it is done now. " });
}
