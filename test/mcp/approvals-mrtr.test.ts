import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ServerContext } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApprovalStateCodec } from "../../src/mcp/index.js";
import { APPROVAL_FORM, approvalQuestion } from "../../src/tools/index.js";
import { DECLARES_ELICITATION, legacyRequest, modernRequest } from "../support/mcp-raw.js";
import { APPROVAL_ID, APPROVERS, startApprovalEndpoint } from "./approval-fakes.js";

type Endpoint = Awaited<ReturnType<typeof startApprovalEndpoint>>;

const APPROVE = { [APPROVAL_ID]: { action: "accept", content: { approve: true } } };

/** What the SDK hands a state's `bind`: the method, and the caller in `authInfo`. */
const contextOf = (token: string) => ({ mcpReq: { method: "tools/call" }, http: { authInfo: { token: "", clientId: token, scopes: [], extra: { principal: APPROVERS[token] } } } }) as unknown as ServerContext;

describe("approvals asked with an InputRequiredResult (2026-07-28, no task)", () => {
  let server: Endpoint;
  beforeAll(async () => {
    server = await startApprovalEndpoint();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server.agent.approvals.length = 0;
    server.agent.records.clear();
  });

  const call = (args: { tool: string; arguments: Record<string, unknown>; token?: string; elicitation?: boolean; retry?: { requestState: string; inputResponses?: Record<string, unknown> } }) =>
    modernRequest({
      url: server.mcpUrl,
      token: args.token ?? "alice",
      method: "tools/call",
      name: args.tool,
      params: { name: args.tool, arguments: args.arguments, ...args.retry },
      ...(args.elicitation === false ? {} : { capabilities: DECLARES_ELICITATION }),
    });
  const ask = async () => {
    const first = await call({ tool: "ha_agent_ask", arguments: { message: "Turn on the kitchen light" } });
    expect(first.result?.resultType).toBe("input_required");
    return first.result as { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
  };

  it("asks with one form elicitation keyed by the approval id, and a signed requestState", async () => {
    const asked = await ask();
    const record = [...server.agent.records.values()][0]!;
    expect(asked.inputRequests).toEqual({ [APPROVAL_ID]: { method: "elicitation/create", params: { mode: "form", message: approvalQuestion(record.approval!), requestedSchema: APPROVAL_FORM } } });
    expect(asked.requestState).toMatch(/^v1\./);
    expect(server.agent.approvals).toEqual([]);
  });

  it("takes the retry's answer as the decision, then awaits the same turn and answers as ask does", async () => {
    const asked = await ask();
    const retried = await call({ tool: "ha_agent_ask", arguments: { message: "Turn on the kitchen light" }, retry: { requestState: asked.requestState, inputResponses: APPROVE } });
    expect(retried.error).toBeUndefined();
    expect(retried.result).toMatchObject({ resultType: "complete", structuredContent: { status: "completed", response: { final_message: "Done: the kitchen light is on." } } });
    expect(server.agent.approvals).toEqual([{ principal: "alice", continuationId: expect.any(String), approvalId: APPROVAL_ID, decision: "approve", via: "elicitation" }]);
    // The retry carries the same message, and starts no second turn.
    expect(server.agent.records.size).toBe(1);
  });

  it("denies for a declined form, and asks again for a retry without an answer", async () => {
    const asked = await ask();
    const again = await call({ tool: "ha_agent_ask", arguments: { message: "Turn on the kitchen light" }, retry: { requestState: asked.requestState } });
    expect(again.result).toMatchObject({ resultType: "input_required", inputRequests: { [APPROVAL_ID]: { method: "elicitation/create" } } });
    expect(server.agent.approvals).toEqual([]);
    const declined = await call({ tool: "ha_agent_ask", arguments: { message: "Turn on the kitchen light" }, retry: { requestState: asked.requestState, inputResponses: { [APPROVAL_ID]: { action: "decline" } } } });
    expect(declined.result).toMatchObject({ structuredContent: { status: "completed", response: { final_message: expect.stringContaining("denied") } } });
    expect(server.agent.approvals.map((a) => a.decision)).toEqual(["deny"]);
    // Answered twice: the second answer is ignored, and the turn's outcome is given again.
    const twice = await call({ tool: "ha_agent_ask", arguments: { message: "Turn on the kitchen light" }, retry: { requestState: asked.requestState, inputResponses: APPROVE } });
    expect(twice.result).toMatchObject({ structuredContent: { status: "completed" } });
    expect(server.agent.approvals).toHaveLength(1);
  });

  it("refuses a forged, altered, expired or another caller's requestState with -32602, and approves nothing", async () => {
    const asked = await ask();
    const turn = [...server.agent.records.values()][0]!;
    const state = { tool: "ask", continuation_id: turn.id, approval_id: APPROVAL_ID };
    const [body, mac] = [asked.requestState.slice(0, asked.requestState.lastIndexOf(".")), asked.requestState.slice(asked.requestState.lastIndexOf(".") + 1)];
    const altered = `${body.slice(0, -2)}${body.endsWith("AA") ? "BB" : "AA"}.${mac}`;
    const forged = await createApprovalStateCodec({ key: new Uint8Array(32).fill(7) }).mint(state, contextOf("alice"));
    const expired = await createApprovalStateCodec({ key: server.key, ttlSeconds: -60 }).mint(state, contextOf("alice"));
    for (const requestState of ["not-a-state", altered, forged, expired]) {
      const refused = await call({ tool: "ha_agent_ask", arguments: { message: "Turn on the kitchen light" }, retry: { requestState, inputResponses: APPROVE } });
      expect(refused.error, requestState).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
    }
    // Bob echoes Alice's state, and one minted for Bob comes back from Alice: both fail the caller binding.
    const echoed = await call({ tool: "ha_agent_ask", arguments: { message: "x" }, token: "bob", retry: { requestState: asked.requestState, inputResponses: APPROVE } });
    expect(echoed.error).toMatchObject({ code: -32602 });
    const bobs = await createApprovalStateCodec({ key: server.key }).mint(state, contextOf("bob"));
    const foreign = await call({ tool: "ha_agent_ask", arguments: { message: "x" }, retry: { requestState: bobs, inputResponses: APPROVE } });
    expect(foreign.error).toMatchObject({ code: -32602 });
    // A genuine state echoed onto another tool's call.
    const elsewhere = await call({ tool: "ha_agent_await_continuation", arguments: { continuation_id: turn.id }, retry: { requestState: asked.requestState, inputResponses: APPROVE } });
    expect(elsewhere.error).toMatchObject({ code: -32602 });
    expect(server.agent.approvals).toEqual([]);
    expect(server.agent.records.get(turn.id)?.status).toBe("input_required");
  });

  it("gives a client that did not declare elicitation, and a 2025 client, the plain result that says to approve", async () => {
    const plain = await call({ tool: "ha_agent_ask", arguments: { message: "Turn on the kitchen light" }, elicitation: false });
    expect(plain.result).toMatchObject({ resultType: "complete", structuredContent: { status: "input_required", next: "approve", approval: { approval_id: APPROVAL_ID } } });
    const legacy = await legacyRequest({ url: server.mcpUrl, token: "alice", method: "tools/call", params: { name: "ha_agent_ask", arguments: { message: "Turn on the kitchen light" } } });
    expect(legacy.result).toMatchObject({ structuredContent: { status: "input_required", next: "approve" } });
    expect(legacy.result?.resultType).toBeUndefined();
  });

  it("lets a v2 client with an elicitation handler approve inside one callTool", async () => {
    const asked: string[] = [];
    const client = new Client({ name: "approver", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: DECLARES_ELICITATION });
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(String(request.params.message));
      return { action: "accept", content: { approve: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl), { requestInit: { headers: { authorization: "Bearer alice" } } }));
    try {
      const result = await client.callTool({ name: "ha_agent_ask", arguments: { message: "Turn on the kitchen light" } });
      expect(result.structuredContent).toMatchObject({ status: "completed", response: { final_message: "Done: the kitchen light is on." } });
      expect(asked).toEqual([expect.stringContaining("light.turn_on")]);
      expect(server.agent.approvals).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
