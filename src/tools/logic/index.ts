import type { ToolSpec } from "../tool.js";
import { createAutomationCheckTool } from "./check-tool.js";
import type { LogicDeps } from "./common.js";
import { createAutomationInspectTool } from "./inspect-tool.js";
import { createAutomationSaveTool } from "./save-tool.js";
import { createTraceTool } from "./trace-tool.js";

export { createAutomationCheckTool, createAutomationInspectTool, createAutomationSaveTool, createTraceTool, type LogicDeps };
export { unifiedDiff } from "./diff.js";

/** The automation tools: inspect, trace, check and save. */
export function createLogicTools(deps: LogicDeps): ToolSpec[] {
  return [createAutomationInspectTool(deps), createTraceTool(deps), createAutomationCheckTool(deps), createAutomationSaveTool(deps)];
}
