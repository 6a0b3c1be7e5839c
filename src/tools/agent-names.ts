/**
 * Which registry tools the agent inside the container may use, by base name.
 * Session tools are for MCP callers only. The lists live here, beside the
 * registry, so the agent that offers them and the personas that name them
 * read one source.
 */
export const AGENT_READ_TOOLS = [
  "index_search",
  "state_query",
  "diagnose_entity",
  "analyze_errors",
  "history",
  "statistics",
  "energy",
  "automation_inspect",
  "trace",
  "automation_check",
] as const;
/**
 * Tools the agent gets only from a persona that names them. A template reads
 * any entity in Home Assistant, past what the user exposed to Assist, so it
 * is offered where drafting needs it and nowhere else. render_context is
 * for an MCP client handing the home to its own model; the agent reads
 * states with state_query, and every declaration costs room in each request.
 */
export const PERSONA_ONLY_TOOLS = ["render_template", "render_context"] as const;
export const ACTION_TOOL = "call_service";
/** Saves an automation: offered only where it can run, behind a person's yes. */
export const SAVE_TOOL = "automation_save";

/**
 * Every tool a persona may name. Naming one never grants it: call_service and
 * automation_save are still offered only where the session and the add-on's
 * options allow them, and a tool whose reads the owner may not make is withheld.
 */
export const PERSONA_TOOL_NAMES = [...AGENT_READ_TOOLS, ...PERSONA_ONLY_TOOLS, ACTION_TOOL, SAVE_TOOL] as const;
