export { createApprovalElicitation, type ApprovalElicitation } from "./elicitation.js";
export { createApprovalStateCodec, ApprovalStateSchema, APPROVAL_STATE_TTL_S, type ApprovalState, type ApprovalStateCodec } from "./state.js";
export { approvalInputRequests, declaresElicitationForm } from "./request.js";
