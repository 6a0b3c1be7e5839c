import { z } from "zod";
import type { ContinuationRecord } from "./continuation-schema.js";
import { FORMAT_VERSION } from "./session-schema.js";

const DAY_MS = 86_400_000;
/**
 * A turn is filed under the quarter hour it began in (UTC): every time zone's
 * offset is a whole number of quarter hours, so the page can add slots up
 * into Home Assistant's calendar days, whatever the zone is then.
 */
export const SLOT_MS = 15 * 60_000;
/** 30 of the home's days, plus the 14 hours the farthest zone is ahead of UTC and a day of margin. */
export const LEDGER_KEEP_MS = 32 * DAY_MS;

const count = z.number().int().nonnegative();

/** One owner's and one model's usage in one quarter hour. */
export const UsageSlotSchema = z.object({
  /** Start of the quarter hour (UTC, ms) in which the turns began. */
  at: z.number().int().nonnegative(),
  owner: z.string(),
  /** `provider/model` that answered, as the turn's usage names it. */
  model: z.string().max(200),
  /** Turns that made at least one model call. */
  turns: count,
  modelCalls: count,
  toolCalls: count,
  tokensIn: count,
  tokensOut: count,
  tokensThinking: count,
  /**
   * The turns already added, while their files may still be on disk
   * (`idsSince`): boot adds a finished turn missing from here, and never one
   * twice. Older slots drop them, so the file stays small.
   */
  ids: z.array(z.string()).default([]),
});

/** `usage.json`: daily totals that outlive the turns (continuation_retention_hours), for 30 days. */
export const UsageLedgerSchema = z.object({
  formatVersion: z.literal(FORMAT_VERSION),
  /** Slots from here on list every turn they counted in `ids`. */
  idsSince: z.number().int().nonnegative(),
  slots: z.array(UsageSlotSchema),
});

export type UsageSlot = z.infer<typeof UsageSlotSchema>;
export type UsageLedger = z.infer<typeof UsageLedgerSchema>;

export const emptyLedger = (): UsageLedger => ({ formatVersion: FORMAT_VERSION, idsSince: 0, slots: [] });

const slotOf = (ms: number) => Math.floor(ms / SLOT_MS) * SLOT_MS;

/**
 * Whether the ledger has counted the turn, given its ids as a set
 * (`countedIds`): true too for a turn older than the ids it keeps, which
 * cannot be checked.
 */
export function isCounted(ledger: UsageLedger, counted: ReadonlySet<string>, turn: { id: string; createdAt: number }): boolean {
  return slotOf(turn.createdAt) < ledger.idsSince || counted.has(turn.id);
}

/** Every turn id the ledger lists. */
export const countedIds = (ledger: UsageLedger): Set<string> => new Set(ledger.slots.flatMap((s) => s.ids));

/** The ledger with one finished turn added to the slot it began in, or the same ledger when it is counted already or older than the ledger keeps. */
export const addTurn = (ledger: UsageLedger, turn: ContinuationRecord, now: number): UsageLedger => addTurns(ledger, [turn], now);

/**
 * The ledger with finished turns added, each to the slot it began in; a turn
 * counted already or older than the ledger keeps is left out, and the same
 * ledger comes back when none is left. Linear in the slots, their ids and
 * the turns, so a rebuild from a full data directory stays quick.
 */
export function addTurns(ledger: UsageLedger, turns: readonly ContinuationRecord[], now: number): UsageLedger {
  const key = (at: number, owner: string, model: string) => JSON.stringify([at, owner, model]);
  let slots: Map<string, UsageSlot> | undefined;
  let counted: Set<string> | undefined;
  /** Slots copied for this call, changed in place from then on. */
  const copied = new Set<UsageSlot>();
  for (const turn of turns) {
    const at = slotOf(turn.createdAt);
    if (at < now - LEDGER_KEEP_MS) continue;
    counted ??= countedIds(ledger);
    // Ids older than idsSince are gone: such a turn cannot be checked, and is counted.
    if (at >= ledger.idsSince && counted.has(turn.id)) continue;
    counted.add(turn.id);
    slots ??= new Map(ledger.slots.map((s) => [key(s.at, s.owner, s.model), s]));
    const model = turn.usage.model ?? turn.request.model ?? "unknown";
    const k = key(at, turn.owner, model);
    let slot = slots.get(k);
    if (!slot || !copied.has(slot)) {
      slot = slot ? { ...slot, ids: [...slot.ids] } : { at, owner: turn.owner, model, turns: 0, modelCalls: 0, toolCalls: 0, tokensIn: 0, tokensOut: 0, tokensThinking: 0, ids: [] };
      copied.add(slot);
      slots.set(k, slot);
    }
    const u = turn.usage;
    // A turn cancelled or refused before its first model call cost nothing; its id still says it was seen.
    slot.turns += u.modelCalls > 0 ? 1 : 0;
    slot.modelCalls += u.modelCalls;
    slot.toolCalls += u.toolCalls;
    slot.tokensIn += u.tokensIn;
    slot.tokensOut += u.tokensOut;
    slot.tokensThinking += u.tokensThinking;
    slot.ids.push(turn.id);
  }
  if (!slots) return ledger;
  return { ...ledger, slots: [...slots.values()].sort((a, b) => a.at - b.at) };
}

/**
 * Drops slots older than the ledger keeps, and the ids of slots older than
 * `idsKeepMs` (turns whose files the sweeper has removed by then).
 */
export function pruneLedger(ledger: UsageLedger, now: number, idsKeepMs: number): UsageLedger {
  const idsSince = Math.max(ledger.idsSince, slotOf(now - idsKeepMs));
  return {
    ...ledger,
    idsSince,
    slots: ledger.slots.filter((s) => s.at >= now - LEDGER_KEEP_MS).map((s) => (s.at < idsSince && s.ids.length ? { ...s, ids: [] } : s)),
  };
}
