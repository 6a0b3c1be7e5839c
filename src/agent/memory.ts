import type { ConversationItem, ModelClient } from "../models/index.js";
import { estimateTokens } from "../models/index.js";
import { MEMORY_LIMITS, type SessionMemory } from "../store/index.js";
import type { ContentProvider } from "./content-provider.js";
import type { TurnJournal } from "./journal.js";
import type { SummaryDetail } from "./records.js";

/** About 2,000 tokens: the rolling summary is cut to this after each fold. */
export const SUMMARY_MAX_CHARS = 8_000;

/** Puts the session's memory into its registers: summary, facts and pins go to the system instruction. */
export function loadMemory(provider: ContentProvider, memory: SessionMemory): void {
  provider.set("rolling_summary", memory.rollingSummary ? [memory.rollingSummary] : []);
  provider.set("facts", memory.facts.map((f) => `- ${f.text}`));
  provider.set("pins", memory.pins.map((p) => `- ${p.text}`));
}

/** The last K messages as conversation items; a remembered answer carries no raw turn, so any provider renders it. */
export function rememberedMessages(memory: SessionMemory): ConversationItem[] {
  return memory.lastK.map((m) =>
    m.role === "user"
      ? { type: "user" as const, text: m.content }
      : { type: "model" as const, turn: { provider: "memory", model: "memory", raw: null, text: m.content, toolCalls: [] } },
  );
}

/**
 * Adds the finished exchange to lastK. When lastK overflows, one cheap model
 * call folds the oldest messages into the rolling summary; that call is
 * journaled as a `summary` step, and a resume reuses it. If the fold fails,
 * the oldest messages are kept as plain text in the summary instead: memory
 * loses detail, never the turn.
 */
export async function rememberExchange(args: {
  memory: SessionMemory;
  user: string;
  answer: string;
  continuationId: string;
  now: number;
  lastK: number;
  model: ModelClient;
  journal: TurnJournal;
  /** A fold journaled by an earlier run of this turn. */
  journaledSummary?: SummaryDetail;
  signal?: AbortSignal;
}): Promise<{ memory: SessionMemory; fold: SummaryDetail | undefined }> {
  // The stored record has limits; memory keeps the newest facts and the start of a very long answer.
  const clip = (text: string) => (text.length > MEMORY_LIMITS.messageChars ? `${text.slice(0, MEMORY_LIMITS.messageChars - 1)}…` : text);
  const memory = { ...args.memory, facts: args.memory.facts.slice(-MEMORY_LIMITS.facts) };
  const lastK = [
    ...memory.lastK,
    { role: "user" as const, content: clip(args.user), continuationId: args.continuationId, ts: args.now },
    { role: "assistant" as const, content: clip(args.answer), continuationId: args.continuationId, ts: args.now },
  ];
  if (lastK.length <= args.lastK) return { memory: { ...memory, lastK }, fold: undefined };
  const overflow = lastK.slice(0, lastK.length - args.lastK);
  const kept = lastK.slice(-args.lastK);
  // The fold a run before a restart made: its call is this turn's, counted once.
  if (args.journaledSummary !== undefined) return { memory: { ...memory, lastK: kept, rollingSummary: args.journaledSummary.summary }, fold: args.journaledSummary };
  const folded = await fold(memory.rollingSummary, overflow, args);
  // Its usage is journaled with it: the turn's totals and the console's list of calls count this call too.
  await args.journal.append({ type: "summary", detail: folded });
  return { memory: { ...memory, lastK: kept, rollingSummary: folded.summary }, fold: folded };
}

async function fold(previous: string, messages: SessionMemory["lastK"], args: { model: ModelClient; signal?: AbortSignal }): Promise<SummaryDetail> {
  const transcript = messages.map((m) => `${m.role === "user" ? "User" : "Assistant"}: ${m.content}`).join("\n");
  try {
    const result = await args.model.generate(
      {
        system: "You keep a running summary of a conversation about a smart home. Merge the new messages into the summary. Keep entity ids, decisions and open questions. Answer with the summary only, at most 300 words.",
        conversation: [{ type: "user", text: `Summary so far:\n${previous || "(empty)"}\n\nNew messages:\n${transcript}` }],
        maxOutputTokens: 600,
      },
      { signal: args.signal },
    );
    const spent = { usage: result.usage, durationMs: result.durationMs };
    if (result.text.trim()) return { summary: cut(result.text.trim()), ...spent };
    return { summary: cut([previous, transcript].filter(Boolean).join("\n")), ...spent };
  } catch {
    // fall through: keep the words themselves
  }
  return { summary: cut([previous, transcript].filter(Boolean).join("\n")) };
}

/** Keeps the newest part of a summary within its budget. */
function cut(summary: string): string {
  if (summary.length <= SUMMARY_MAX_CHARS) return summary;
  return `…${summary.slice(summary.length - SUMMARY_MAX_CHARS + 1)}`;
}

export const summaryTokens = (memory: SessionMemory): number => estimateTokens(memory.rollingSummary);
