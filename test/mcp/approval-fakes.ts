import { randomBytes } from "node:crypto";
import { healthReport, startMcpListener } from "../../src/http/index.js";
import { createMcpEndpoint } from "../../src/mcp/index.js";
import { HaAgentError, silentLogger, type Principal } from "../../src/shared/index.js";
import { ContinuationRecordSchema, FORMAT_VERSION, type ContinuationRecord } from "../../src/store/index.js";
import { createAgentTasks, createAgentTools, ToolRegistry, type AgentService, type ApprovalAnswer } from "../../src/tools/index.js";

/** The approval every turn of the fake agent waits for. */
export const APPROVAL_ID = "01JD00000000000000000000A1";

const ulid = (n: number) => `01JD${String(n).padStart(22, "0")}`;

/** A turn waiting for a person's yes to turn on the kitchen light. */
export function waitingRecord(args: { id: string; owner: string; stream?: boolean }): ContinuationRecord {
  return ContinuationRecordSchema.parse({
    formatVersion: FORMAT_VERSION,
    id: args.id,
    sessionId: ulid(900),
    owner: args.owner,
    status: "input_required",
    createdAt: 1_000,
    updatedAt: 2_000,
    request: { message: "Turn on the kitchen light", ...(args.stream ? { stream: true } : {}) },
    approval: {
      id: APPROVAL_ID,
      step: 1,
      index: 0,
      call: { domain: "light", service: "turn_on", targets: ["light.kitchen"], data: { brightness: 128 } },
      targetStates: [{ entityId: "light.kitchen", name: "Kitchen", state: "off" }],
      why: "not_preapproved",
      requestedAt: 1_500,
      expiresAt: 3_600_000,
    },
  });
}

/**
 * An agent whose every turn asks for one approval, without a model: `ask`
 * starts a turn that waits; approving completes it ("Done."), denying
 * completes it with the denial. Every answer is recorded in `approvals`.
 */
export function createWaitingAgent(): AgentService & { approvals: (ApprovalAnswer & { principal: string })[]; records: Map<string, ContinuationRecord> } {
  const records = new Map<string, ContinuationRecord>();
  const approvals: (ApprovalAnswer & { principal: string })[] = [];
  let next = 1;
  const owned = (principal: Principal, id: string) => {
    const record = records.get(id);
    if (!record || record.owner !== principal.id) throw new HaAgentError("not_found", `No continuation ${id}.`);
    return record;
  };
  const refuse = (): never => {
    throw new HaAgentError("not_supported", "The fake agent only asks and approves.");
  };
  return {
    approvals,
    records,
    async ask(principal, args) {
      const record = waitingRecord({ id: ulid(next++), owner: principal.id, ...(args.stream ? { stream: true } : {}) });
      records.set(record.id, record);
      return { continuation: record, created: true };
    },
    send: refuse,
    get: async (principal, id) => owned(principal, id),
    wait: async (principal, id) => owned(principal, id),
    list: async () => ({ continuations: [] }),
    cancel: refuse,
    resume: refuse,
    retry: refuse,
    async approve(principal, answer) {
      const record = owned(principal, answer.continuationId);
      if (record.status !== "input_required" || record.approval?.id !== answer.approvalId) throw new HaAgentError("no_pending_approval", "This turn waits for no such approval.");
      approvals.push({ ...answer, principal: principal.id });
      const finalMessage = answer.decision === "approve" ? "Done: the kitchen light is on." : `Not done: the person denied it (${answer.reason ?? "no reason"}).`;
      const { approval: _answered, ...rest } = record;
      const done = { ...rest, status: "completed" as const, updatedAt: record.updatedAt + 1, response: { finalMessage, citations: [] } };
      records.set(record.id, done);
      return done;
    },
  };
}

/** Callers by token: the token is the principal's id. */
export const APPROVERS: Record<string, Principal> = {
  alice: { id: "alice", name: "Alice", kind: "user", isAdmin: false },
  bob: { id: "bob", name: "Bob", kind: "user", isAdmin: false },
};

/**
 * The real MCP listener and endpoint over the real agent tools and tasks of
 * the waiting agent, with a known requestState key, so a test can mint
 * states as the server does (for another caller, or already expired).
 */
export async function startApprovalEndpoint(): Promise<{ mcpUrl: string; agent: ReturnType<typeof createWaitingAgent>; key: Uint8Array; close(): Promise<void> }> {
  const agent = createWaitingAgent();
  const registry = new ToolRegistry();
  for (const tool of createAgentTools({ agent })) registry.register(tool);
  const key = new Uint8Array(randomBytes(32));
  const endpoint = createMcpEndpoint({ registry, info: { name: "approvals", version: "1" }, logger: silentLogger, tasks: { agent: createAgentTasks({ agent }), ttlMs: 3_600_000 }, requestStateKey: key });
  const listener = await startMcpListener({
    host: "127.0.0.1",
    port: 0,
    verifier: { verify: async (token) => APPROVERS[token] },
    mcp: endpoint,
    health: () => healthReport([], 0, 0),
    logger: silentLogger,
  });
  return {
    mcpUrl: `http://127.0.0.1:${listener.port}/mcp`,
    agent,
    key,
    async close() {
      await listener.close();
      await endpoint.close();
    },
  };
}
