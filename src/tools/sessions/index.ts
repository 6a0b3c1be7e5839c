import type { SessionToolDeps } from "./get-session.js";
import type { ToolSpec } from "../tool.js";
import { createEndSessionTool } from "./end-session.js";
import { createGetSessionTool } from "./get-session.js";
import { createListSessionsTool } from "./list-sessions.js";
import { createStartSessionTool } from "./start-session.js";
import { createUpdateSessionTool } from "./update-session.js";

export { BUDGET_FIELDS, budgetsSaid, SessionIdInput, PersonaFields, personaChoice, type PersonaCheck } from "./wire.js";

/** The session lifecycle tools; none of them needs a model. */
export function createSessionTools(deps: SessionToolDeps): ToolSpec[] {
  return [createStartSessionTool(deps), createGetSessionTool(deps), createUpdateSessionTool(deps), createEndSessionTool(deps), createListSessionsTool(deps)];
}
