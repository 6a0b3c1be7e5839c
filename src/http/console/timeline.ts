import type { JournalRecord } from "../../agent/index.js";
import { shownData, shownLines } from "../../shared/index.js";
import { approvalShown, isOpenStatus, redactSecrets, type ContinuationRecord } from "../../store/index.js";
import type { Timeline, TimelineEntry } from "./wire.js";

/** A tool result larger than this is cut for the page; the journal keeps it whole. */
const MAX_RESULT_CHARS = 4_000;

function trimmed(value: unknown): unknown {
  const text = JSON.stringify(value) ?? "null";
  return text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}… (${text.length} characters in all)` : value;
}

/**
 * One journal line as a timeline entry, redacted as the store redacts, and
 * with every name in it shown as data (shared/display-name.ts); undefined
 * for lines a person need not see.
 */
export function timelineEntry(record: JournalRecord): TimelineEntry | undefined {
  switch (record.type) {
    case "model_response": {
      const d = record.detail;
      return { kind: "model", step: d.step, model: `${d.turn.provider}/${d.turn.model}`, tokensIn: d.usage.inputTokens, tokensOut: d.usage.outputTokens, tokensThinking: d.usage.thinkingTokens, durationMs: d.durationMs, text: shownLines(redactSecrets(d.turn.text)), toolCalls: d.turn.toolCalls.map((c) => c.name) };
    }
    case "tool_call":
      return { kind: "tool", step: record.detail.step, index: record.detail.index, name: record.detail.call.name, action: record.detail.action, args: shownData(redactSecrets(record.detail.call.args)) };
    case "approval_request": {
      const shown = approvalShown(record.detail.call);
      return { kind: "approval", approvalId: record.detail.id, service: shown.service, targets: shown.targets, data: shownData(redactSecrets(shown.data)) };
    }
    case "approval_decision": {
      const d = record.detail;
      return { kind: "decision", approvalId: d.approvalId, decision: d.decision, ...(d.via ? { via: d.via } : {}), ...(d.reason ? { reason: shownLines(redactSecrets(d.reason)) } : {}) };
    }
    case "wrap_up":
      return { kind: "wrap_up", budget: record.detail.budget };
    default:
      return undefined;
  }
}

/** Adds a tool result to the call it answers. */
function attachResult(entries: TimelineEntry[], record: Extract<JournalRecord, { type: "tool_result" }>): void {
  const call = entries.find((e) => e.kind === "tool" && e.step === record.detail.step && e.index === record.detail.index);
  if (call?.kind === "tool") {
    call.result = shownData(trimmed(redactSecrets(record.detail.result.output)));
    call.isError = record.detail.result.isError;
    call.durationMs = record.detail.durationMs;
  }
}

/** Entity ids named in the answer's citations. */
function citedEntities(record: ContinuationRecord): string[] {
  const ids = new Set<string>();
  for (const c of record.response?.citations ?? []) for (const m of `${c.source} ${c.detail ?? ""}`.matchAll(/\b[a-z_]+\.[a-z0-9_]+\b/g)) ids.add(m[0]);
  return [...ids];
}

/**
 * What a turn has spent so far, read from its journal: a turn writes its
 * usage to its record only when it ends, and one waiting for a person has
 * already made its model calls.
 */
export function journalUsage(journal: readonly JournalRecord[]): Timeline["usage"] {
  const usage = { tokensIn: 0, tokensOut: 0, tokensThinking: 0, modelCalls: 0, toolCalls: 0 };
  for (const line of journal) {
    if (line.type === "model_response") {
      usage.modelCalls += 1;
      usage.tokensIn += line.detail.usage.inputTokens;
      usage.tokensOut += line.detail.usage.outputTokens;
      usage.tokensThinking += line.detail.usage.thinkingTokens;
    } else if (line.type === "summary") {
      // The memory fold is a model call too, as the turn's own totals count it.
      usage.modelCalls += 1;
      usage.tokensIn += line.detail.usage?.inputTokens ?? 0;
      usage.tokensOut += line.detail.usage?.outputTokens ?? 0;
      usage.tokensThinking += line.detail.usage?.thinkingTokens ?? 0;
    } else if (line.type === "tool_call") usage.toolCalls += 1;
  }
  return usage;
}

/** A turn as the page shows it: its request, each model and tool call, approvals, and the answer. */
export function buildTimeline(record: ContinuationRecord, journal: readonly JournalRecord[], canAct: boolean): Timeline {
  const entries: TimelineEntry[] = [];
  for (const line of journal) {
    if (line.type === "tool_result") attachResult(entries, line);
    else if (line.type === "summary") {
      // Numbered after the turn's own calls, so the list and the header's count agree.
      const u = line.detail.usage;
      const call = entries.filter((e) => e.kind === "model").length + 1;
      entries.push({ kind: "memory", call, tokensIn: u?.inputTokens ?? 0, tokensOut: u?.outputTokens ?? 0, tokensThinking: u?.thinkingTokens ?? 0, ...(line.detail.durationMs !== undefined ? { durationMs: line.detail.durationMs } : {}) });
    } else {
      const entry = timelineEntry(line);
      if (entry) entries.push(entry);
    }
  }
  return {
    continuationId: record.id,
    sessionId: record.sessionId,
    owner: record.owner,
    status: record.status,
    message: redactSecrets(record.request.message),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    entries,
    answer: record.response ? shownLines(redactSecrets(record.response.finalMessage)) : null,
    cites: citedEntities(record),
    error: record.error ? redactSecrets(record.error) : null,
    // An open turn has written no usage yet: count what its journal holds.
    usage: isOpenStatus(record.status)
      ? journalUsage(journal)
      : { tokensIn: record.usage.tokensIn, tokensOut: record.usage.tokensOut, tokensThinking: record.usage.tokensThinking, modelCalls: record.usage.modelCalls, toolCalls: record.usage.toolCalls },
    canAct,
  };
}
