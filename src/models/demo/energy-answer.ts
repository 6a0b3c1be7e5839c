import type { PlannerReply } from "./gemini-port.js";

const INTRO = "I'm the demo model: I look things up with simple rules, not an AI.";
/** A question about how much energy the home used ("How much energy did we use this week?"). */
const ENERGY_QUESTION = /\b(energy|electricity|kwh)\b/i;
const AMOUNT = /\b(how much|use[ds]?|using|consum\w*|spen[dt])\b/i;

/** The period a question names, as the energy tool takes it; today when it names none, as the Energy dashboard opens. */
function periodOf(message: string): { start: string; period: string } {
  if (/\blast week\b/i.test(message)) return { start: "-7d", period: "week" };
  if (/\bthis month\b/i.test(message)) return { start: "today", period: "month" };
  if (/\b(this )?week\b/i.test(message)) return { start: "today", period: "week" };
  if (/\byesterday\b/i.test(message)) return { start: "yesterday", period: "day" };
  return { start: "today", period: "day" };
}

/**
 * The demo model's rule for energy questions: ask the energy tool for the
 * period the question names, then answer with the story it tells, which
 * comes from Home Assistant's long-term statistics. Undefined when the
 * message is not such a question or the session offers no energy tool.
 */
export function planEnergyAnswer(turn: { message: string; responses: { name: string; response: Record<string, unknown> }[]; offered: (tool: string) => boolean }): PlannerReply | undefined {
  if (!ENERGY_QUESTION.test(turn.message) || !AMOUNT.test(turn.message)) return undefined;
  const read = turn.responses.find((r) => r.name === "energy");
  if (!read) {
    if (!turn.offered("energy")) return undefined;
    return { thought: "An energy question: I read the Energy dashboard's totals for the period it names.", calls: [{ name: "energy", args: periodOf(turn.message) }] };
  }
  // A failed call reaches the model as {error: <the tool's output>}, and that output is itself {error: {code, message}}.
  const failed = read.response.error as { code?: string; message?: string; error?: { code?: string; message?: string } } | undefined;
  const error = failed?.error ?? failed;
  if (error) return { text: `${INTRO} I could not read the energy totals (${error.code ?? "error"}): ${error.message ?? "no reason given"}` };
  return { text: `${INTRO} ${String(read.response.narrative)} These figures are Home Assistant's long-term statistics, counted as its Energy dashboard counts them.` };
}
