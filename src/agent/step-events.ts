import { shownData, shownLines } from "../shared/index.js";
import { approvalShown, approvalWords } from "../store/index.js";
import type { JournalEntry, TurnJournal } from "./journal.js";
import { JournalRecordSchema } from "./records.js";
import type { AgentEvent } from "./events.js";

/** A journaled event's content (`step` or `approval`), before the session and continuation are added. */
export type StepEvent = Pick<AgentEvent, "type" | "seq" | "payload">;

/**
 * The event a journal line makes (`step`, or `approval` for an approval
 * asked or answered), or undefined for lines no one watches (intents,
 * retrieval, wrap-ups). Live events and replayed ones both come from here,
 * so a reconnect sees exactly what a listener saw.
 */
export function stepEventOf(entry: JournalEntry, seq: number): StepEvent | undefined {
  const parsed = JournalRecordSchema.safeParse(entry);
  if (!parsed.success) return undefined;
  const record = parsed.data;
  if (record.type === "model_response") {
    const { step, turn, finishReason } = record.detail;
    const asked = turn.toolCalls.map((c) => c.name);
    return {
      type: "step",
      seq,
      payload: {
        step: { type: "model_response", number: step, detail: { step, text: turn.text, toolCalls: asked, finishReason } },
        message: asked.length ? `Step ${step}: asked for ${asked.join(", ")}` : `Step ${step}: answered`,
      },
    };
  }
  if (record.type === "tool_result") {
    const { step, result } = record.detail;
    return { type: "step", seq, payload: { step: { type: "tool_result", number: step, detail: { step, name: result.name, isError: result.isError } } } };
  }
  if (record.type === "approval_request") {
    const { id, call, expiresAt } = record.detail;
    const shown = approvalShown(call);
    // Pages show events: the data (a save's config and diff name automations) goes out with its names made visible.
    const approval = { approval_id: id, ...shown, data: shownData(shown.data), expires_at: new Date(expiresAt).toISOString() };
    return { type: "approval", seq, payload: { approval, message: `Waiting for a person to approve ${approvalWords(call)}` } };
  }
  if (record.type === "approval_decision") {
    const { approvalId, decision, reason } = record.detail;
    // The request's event, earlier in the same journal, names the call.
    return { type: "approval", seq, payload: { approval: { approval_id: approvalId, decision, ...(reason ? { reason: shownLines(reason) } : {}) }, message: `Approval ${approvalId}: ${decision}` } };
  }
  return undefined;
}

/** Every `step` event of a journal, each with its line's position as seq. */
export function stepEventsOf(entries: readonly JournalEntry[]): StepEvent[] {
  return entries.flatMap((entry, i) => stepEventOf(entry, i + 1) ?? []);
}

/**
 * A journal that knows each line's position: `onStep` hears a `step` event
 * once its line is written, with that position as seq. Positions are taken
 * in the order appends are made, which is the order the log writes them.
 */
export function sequencedJournal(args: { journal: TurnJournal; written: number; onStep: (event: StepEvent) => void }): TurnJournal & { readonly position: number } {
  let position = args.written;
  return {
    get position() {
      return position;
    },
    async append(entry, options) {
      const seq = ++position;
      await args.journal.append(entry, options);
      const event = stepEventOf(entry, seq);
      if (event) args.onStep(event);
    },
    read: () => args.journal.read(),
  };
}
