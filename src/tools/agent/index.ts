import type { ToolSpec } from "../tool.js";
import { createApproveTool } from "./approve.js";
import { createAskTool } from "./ask.js";
import { createAwaitContinuationTool } from "./await-continuation.js";
import { createCancelTool } from "./cancel.js";
import { createResumeTool } from "./resume.js";
import { createRetryTool } from "./retry.js";
import { createSendMessageTool } from "./send-message.js";
import type { AgentService, AgentServiceEvent, ApprovalAnswer } from "./service.js";

export type { AgentService, AgentServiceEvent, ApprovalAnswer };
export {
  APPROVAL_FORM,
  ApprovalFormSchema,
  approvalQuestion,
  approvalToWire,
  decisionFromElicitation,
  type ApprovalChannel,
  type ApprovalDecision,
  type ApprovalView,
} from "./approval-wire.js";
export { createAgentTasks, type AgentTasks } from "./tasks.js";
export type { ContinuationResult } from "./wire.js";

/** The tools that talk to the agent inside the container. */
export function createAgentTools(deps: { agent: AgentService }): ToolSpec[] {
  return [createSendMessageTool(deps), createAwaitContinuationTool(deps), createCancelTool(deps), createAskTool(deps), createResumeTool(deps), createRetryTool(deps), createApproveTool(deps)];
}
