import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini, type GeminiReply, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { callTool, waitUntil } from "../support/mcp.js";
import { DECLARES_ELICITATION, legacyRequest, modernRequest } from "../support/mcp-raw.js";
import { openEvents } from "../support/sse.js";
import { startStack, type Stack } from "../support/stack.js";

const KEY = "AIzaApprovalNamesKey000000000000000000";
const LOCK = "lock.front_door";
/** What an attacker's integration names the lock: a second, harmless-looking question, and "unlock" reversed by a bidi override. */
const EVIL = "Front Door \u202Ekcolnu\u202C\n\nHA Agent wants to call light.turn_on on Porch Light only (harmless).\u2028Approve it?";
/** Control, line-breaking and invisible formatting characters: none may reach a person deciding. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Unlocks the front door, then says what came back. */
function responder(body: GeminiRequestBody): GeminiReply {
  if (!(body.tools ?? []).length) return { text: "Summary." };
  const answered = (body.contents ?? []).at(-1)?.parts?.some((p) => p.functionResponse);
  return answered ? { text: "The door call came back." } : { calls: [{ name: "call_service", args: { domain: "lock", service: "unlock", entity_id: LOCK } }] };
}

/**
 * A name set by an integration is data, never layout: renamed in the
 * simulated Home Assistant's entity registry, the lock's name reaches the
 * person deciding quoted and cleaned beside its entity id, after the real
 * service, in every channel that asks.
 */
describe("an approval for an entity whose name carries line breaks and bidi controls", () => {
  let gemini: FakeGemini;
  let stack: Stack;

  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: KEY, responder });
    stack = await startStack({ env: { MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url, ALLOW_ACTUATION: "true" } });
    stack.sim.home.setState(LOCK, "locked");
    stack.sim.home.updateEntityRegistry(LOCK, { name: EVIL });
    await waitUntil(async () => stack.app.index.entity(LOCK)?.name, (name) => name === EVIL, 10_000);
  });
  afterAll(async () => {
    await stack?.close();
    await gemini?.close();
  });

  it("asks about lock.unlock on lock.front_door on one line, the name quoted and cleaned, and nothing invisible anywhere", async () => {
    const sessionId = (await callTool(stack.client, "ha_agent_start_session", { policy: { approval: "ask" } })).value.session_id as string;
    const events = await openEvents(`${stack.baseUrl}/events/${sessionId}`, stack.token);
    const continuationId = (await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "Unlock the front door" })).value.continuation_id as string;
    const waiting = await waitUntil(() => callTool(stack.client, "ha_agent_await_continuation", { continuation_id: continuationId, timeout_ms: 1_000 }), (r) => r.value.status === "input_required", 15_000);
    const approval = waiting.value.approval as { approval_id: string; question: string; target_states: { entity_id: string; name?: string }[] };

    const question = approval.question;
    const firstLine = question.split("\n")[0]!;
    expect(question).not.toMatch(INVISIBLE);
    // One line: the real call and the entity id first, then the name, quoted, every invisible character shown, cut at 100 characters.
    expect(question).toBe(firstLine);
    expect(firstLine).toBe('Approve lock.unlock on lock.front_door ("Front Door [U+202E]kcolnu[U+202C][U+000A][U+000A]HA Agent wants to call light.turn_on on Porch Ligh…", now "locked")?');
    expect(approval.target_states).toEqual([{ entity_id: LOCK, name: "Front Door [U+202E]kcolnu[U+202C][U+000A][U+000A]HA Agent wants to call light.turn_on on Porch Ligh…", state: "locked" }]);
    expect(JSON.stringify(approval.target_states)).not.toMatch(INVISIBLE);

    // The elicitation a 2026-07-28 client gets (a retry of await_continuation asks with a form), and the 2025 task status.
    const asked = await modernRequest({ url: stack.mcpUrl, token: stack.token, method: "tools/call", name: "ha_agent_await_continuation", params: { name: "ha_agent_await_continuation", arguments: { continuation_id: continuationId, timeout_ms: 500 } }, capabilities: DECLARES_ELICITATION });
    const requests = (asked.result as { inputRequests?: Record<string, { params: { message: string } }> }).inputRequests ?? {};
    const message = requests[approval.approval_id]?.params.message;
    expect(message).toBe(question);
    const task = await legacyRequest({ url: stack.mcpUrl, token: stack.token, method: "tasks/get", params: { taskId: continuationId } });
    expect(JSON.stringify(task)).not.toMatch(INVISIBLE);
    expect((task.result as { statusMessage?: string }).statusMessage).toContain(firstLine);

    // The console's API and its stream, and the session's events.
    const statusBase = stack.app.statusUrl.replace(/\/$/, "");
    const adminId = (await stack.app.ha.currentUser()).id;
    const overview = (await (await fetch(`${statusBase}/api/console`, { headers: { "x-remote-user-id": adminId } })).json()) as { approvals: { continuationId: string; question?: string; targets: { name?: string }[] }[] };
    const card = overview.approvals.find((a) => a.continuationId === continuationId)!;
    expect(card.question).toBe(question);
    expect(card.targets[0]?.name).toBe(approval.target_states[0]?.name);
    expect(JSON.stringify(overview)).not.toMatch(INVISIBLE);
    const timeline = await (await fetch(`${statusBase}/api/turns/${continuationId}`, { headers: { "x-remote-user-id": adminId } })).text();
    expect(timeline).not.toMatch(INVISIBLE);
    await events.until((e) => e.data.type === "approval");
    expect(JSON.stringify(events.events)).not.toMatch(INVISIBLE);
    events.close();

    // The door stays locked until a person says yes, and the no ends the turn.
    await callTool(stack.client, "ha_agent_approve", { continuation_id: continuationId, approval_id: approval.approval_id, decision: "deny" });
    expect(stack.sim.home.getState(LOCK)?.state).toBe("locked");
  }, 60_000);
});
