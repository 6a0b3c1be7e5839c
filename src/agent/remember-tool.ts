import type { AgentTool } from "./agent-tool.js";
import type { JournalRecord } from "./records.js";

export const REMEMBER_TOOL = "remember";
const MAX_FACT_CHARS = 300;

/**
 * `remember`: keeps a durable fact in the session's memory. The fact is the
 * tool's journaled result; the turn adds it to memory when it finishes, and
 * a resume finds it in the journal.
 */
export function rememberTool(): AgentTool {
  return {
    action: false,
    declaration: {
      name: REMEMBER_TOOL,
      description: "Stores a short fact for later turns of this session, e.g. a preference the user stated. One fact per call.",
      parameters: { type: "object", properties: { fact: { type: "string", maxLength: MAX_FACT_CHARS, description: "The fact, in one sentence." } }, required: ["fact"] },
    },
    async run(args) {
      const fact = typeof args.fact === "string" ? args.fact.trim() : "";
      if (!fact) return { ok: false, error: { code: "invalid_argument", message: "fact: expected a non-empty sentence." } };
      if (fact.length > MAX_FACT_CHARS) return { ok: false, error: { code: "invalid_argument", message: `fact: at most ${MAX_FACT_CHARS} characters; shorten it.` } };
      return { ok: true, value: { remembered: fact } };
    },
  };
}

/** The facts a turn remembered, from its journaled tool results. */
export function rememberedFacts(records: readonly JournalRecord[]): string[] {
  const facts: string[] = [];
  for (const r of records) {
    if (r.type !== "tool_result") continue;
    const { name, isError, output } = r.detail.result;
    const remembered = (output as { remembered?: unknown } | null)?.remembered;
    if (name === REMEMBER_TOOL && !isError && typeof remembered === "string") facts.push(remembered);
  }
  return facts;
}
