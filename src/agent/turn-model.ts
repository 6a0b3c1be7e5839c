import type { ContinuationRequest, SessionHead } from "../store/index.js";

/**
 * The model a turn runs on, as decided when it was sent. A session that
 * fixes its model always runs on it. Records of older versions kept a
 * per-turn model in their planner hints; that is honoured only where the
 * session lets a turn choose.
 */
export function turnModel(request: ContinuationRequest, session: SessionHead): string | undefined {
  if (session.policy.enforceFixedModel) return session.model.name;
  const legacy = request.plannerHints?.model;
  return request.model ?? (typeof legacy === "string" ? legacy : undefined) ?? session.model.name;
}
