import type { Overview, Timeline, UsageReport } from "../../src/http/console/wire.js";

export type { ApprovalView, ConnectView, HealthView, Overview, Problem, SessionView, Timeline, TimelineEntry, UsageReport } from "../../src/http/console/wire.js";

/** One event of a session's stream, as the server sends it. */
export interface TurnEvent {
  type: "progress" | "step" | "partial" | "approval" | "final";
  session_id: string;
  continuation_id: string;
  seq: number;
  payload: { partial_response?: string; status?: string };
}

// Every URL is relative: under ingress the page's <base> is the ingress path.
async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { credentials: "same-origin", ...init });
  const body = (await res.json().catch(() => ({}))) as T & { message?: string };
  if (!res.ok) throw new Error(body.message ?? `HA Agent answered ${res.status}`);
  return body;
}

export const api = {
  overview: () => call<Overview>("api/console"),
  timeline: (id: string) => call<Timeline>(`api/turns/${id}`),
  usage: () => call<UsageReport>("api/usage"),
  cancel: (id: string) => call<{ ok: true }>(`api/turns/${id}/cancel`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
  answer: (id: string, approvalId: string, decision: "approve" | "deny") =>
    call<{ ok: true }>(`api/turns/${id}/approve`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ approvalId, decision }) }),
  /** The one live subscription: overviews, and the events of the open session. */
  stream: (sessionId: string | undefined) => new EventSource(sessionId ? `api/stream?session=${encodeURIComponent(sessionId)}` : "api/stream"),
};

