import type { PlannerReply } from "./gemini-port.js";

/** "Why didn't …", "why did the … not …", "why doesn't …": a question about something that did not happen, which an automation should have done. */
const WHY_NOT = /\bwhy\b.*\b(didn'?t|did\s+not|doesn'?t|does\s+not|never)\b/i;
/** Words that say when or how, not what: left out of the automation's name the question is searched for. */
const FILLER = new Set(["why", "didn't", "didnt", "did", "not", "doesn't", "doesnt", "does", "wasn't", "wasnt", "was", "isn't", "isnt", "won't", "wont", "never", "the", "a", "my", "our", "turn", "turned", "on", "off", "come", "came", "go", "went", "run", "ran", "work", "happen", "start", "last", "this", "today", "yesterday", "morning", "evening", "tonight"]);

interface Run {
  outcome?: string;
  narrative?: string;
}

/**
 * The demo model's rule for "why didn't X happen?": it asks
 * automation_inspect about the automation the question's words name, then
 * answers with that automation's newest run as its trace tells it, or with
 * why there was none. Undefined for any other question, or when the tool is
 * not offered (the owner is no administrator).
 */
export function whyNotPlan(turn: { message: string; responses: { name: string; response: Record<string, unknown> }[]; intro: string }, offered: (tool: string) => boolean): PlannerReply | undefined {
  if (!WHY_NOT.test(turn.message) || !offered("automation_inspect")) return undefined;
  const inspected = turn.responses.find((r) => r.name === "automation_inspect")?.response;
  if (!inspected) {
    const words = turn.message.toLowerCase().replace(/[?!.,]/g, " ").split(/\s+/).filter((w) => w && !FILLER.has(w));
    return { thought: "Something did not happen: I read the runs of the automation the question names.", calls: [{ name: "automation_inspect", args: { automation: words.join(" ") || turn.message.slice(0, 200) } }] };
  }
  const error = inspected.error as { code?: string; message?: string } | undefined;
  if (error) return { text: `${turn.intro} I could not read that automation's runs (${error.code ?? "error"}): ${error.message ?? "no reason given"}` };
  const name = `${String(inspected.alias)} (${String(inspected.entity_id)})`;
  const [run] = (inspected.runs as Run[] | undefined) ?? [];
  if (!run) return { text: `${turn.intro} ${name} should have done it, but it did not run. ${((inspected.diagnostics as string[] | undefined) ?? []).join(" ")}`.trim() };
  return { text: `${turn.intro} ${name} should have done it. Its last run: ${run.narrative ?? "(no story)"}` };
}
