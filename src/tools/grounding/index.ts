import type { HaAccess } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import type { Clock } from "../../shared/index.js";
import type { ToolSpec } from "../tool.js";
import { createAnalyzeErrorsTool } from "./analyze-errors.js";
import { createDiagnoseEntityTool } from "./diagnose-entity.js";
import { createIndexSearchTool } from "./index-search.js";
import { createRenderContextTool } from "./render-context.js";
import { createStateQueryTool } from "./state-query.js";

export { createAnalyzeErrorsTool, createDiagnoseEntityTool, createIndexSearchTool, createRenderContextTool, createStateQueryTool };

/**
 * The deterministic tools that ground answers in the home: search, states,
 * diagnosis, errors, rendering. `timeZone` is Home Assistant's, for the
 * times a person reads (UTC without it).
 */
export function createGroundingTools(deps: { index: HomeIndex; ha: HaAccess; clock?: Clock; timeZone?: () => Promise<string> }): ToolSpec[] {
  return [
    createIndexSearchTool(deps),
    createStateQueryTool(deps),
    createDiagnoseEntityTool(deps),
    createAnalyzeErrorsTool(deps),
    createRenderContextTool(deps),
  ];
}
