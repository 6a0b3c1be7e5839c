import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini, type GeminiReply, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { haStyleToken } from "@ha-agent/ha-simulator";
import { callTool, waitUntil } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

const KEY = "AIzaConsoleKey000000000000000000000000";
const LIGHT = "light.kitchen_ceiling";
const KID = { id: "kid1", name: "Noah", isAdmin: false, tokens: [haStyleToken("console-kid")] };

function responder(body: GeminiRequestBody): GeminiReply {
  if (!(body.tools ?? []).length) return { text: "Summary." };
  const response = (body.contents ?? []).at(-1)?.parts?.find((p) => p.functionResponse)?.functionResponse as { response?: unknown } | undefined;
  if (response) return { text: `Done: the light call came back ${JSON.stringify(response.response)} for ${LIGHT}` };
  return { calls: [{ name: "call_service", args: { domain: "light", service: "turn_on", entity_id: LIGHT } }] };
}

describe("the console's API on the status listener", () => {
  let gemini: FakeGemini;
  let stack: Stack;
  let base: string;
  let adminId: string;
  const as = (userId: string | undefined, extra: Record<string, string> = {}) => ({ headers: { ...(userId ? { "x-remote-user-id": userId } : {}), ...extra } });
  const json = async (path: string, init?: RequestInit) => (await fetch(`${base}${path}`, init)).json() as Promise<Record<string, unknown>>;

  beforeAll(async () => {
    gemini = await startFakeGemini({ apiKey: KEY, responder });
    stack = await startStack({ env: { MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url, ALLOW_ACTUATION: "true" } });
    stack.sim.users.add(KID);
    base = stack.app.statusUrl.replace(/\/$/, "");
    adminId = (await stack.app.ha.currentUser()).id;
  });
  afterAll(async () => {
    await stack?.close();
    await gemini?.close();
  });

  /** A turn of the kid's that waits for the kid's yes. */
  async function kidsWaitingTurn() {
    const kid = await stack.connect(KID.tokens[0]!);
    const sessionId = (await callTool(kid, "ha_agent_start_session", { policy: { approval: "ask" } })).value.session_id as string;
    const continuationId = (await callTool(kid, "ha_agent_send_message", { session_id: sessionId, message: "Turn on the kitchen ceiling light" })).value.continuation_id as string;
    await waitUntil(() => json("/api/console", as(KID.id)), (o) => (o.approvals as { continuationId: string }[]).some((a) => a.continuationId === continuationId), 15_000);
    return { kid, sessionId, continuationId };
  }

  it("serves the page with a strict CSP and no inline script, under the ingress path", async () => {
    const res = await fetch(`${base}/`, { headers: { "x-ingress-path": "/api/hassio_ingress/abc123" } });
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    const html = await res.text();
    expect(html).toContain('<base href="/api/hassio_ingress/abc123/">');
    expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\son\w+=/);
  });

  it("shows a request that names nobody health, problems and connect, and no sessions", async () => {
    await kidsWaitingTurn();
    const overview = await json("/api/console");
    expect(overview.viewer).toBeNull();
    expect(overview.sessions).toEqual([]);
    expect(overview.approvals).toEqual([]);
    expect((overview.health as { ha: { status: string } }).ha.status).toBe("connected");
    expect((overview.connect as { snippets: unknown[]; demoToken?: string }).snippets).toHaveLength(5);
    expect((overview.connect as { demoToken?: string }).demoToken).toBeUndefined();
  });

  it("shows a non-admin only their own sessions, and an admin everyone's with their owners", async () => {
    const { sessionId, continuationId } = await kidsWaitingTurn();
    const mine = (await callTool(stack.client, "ha_agent_start_session", {})).value.session_id as string;
    const kids = (await json("/api/console", as(KID.id))).sessions as { id: string; owner: string }[];
    expect(kids.map((s) => s.id)).toContain(sessionId);
    expect(kids.map((s) => s.id)).not.toContain(mine);
    expect(kids.every((s) => s.owner === KID.id)).toBe(true);
    const admins = (await json("/api/console", as(adminId))).sessions as { id: string; ownerName: string }[];
    expect(admins.find((s) => s.id === sessionId)?.ownerName).toBe("Noah");
    expect(admins.map((s) => s.id)).toContain(mine);
    expect((await fetch(`${base}/api/turns/${continuationId}`, as("stranger"))).status).toBe(404);
    expect((await fetch(`${base}/api/turns/${continuationId}`, as(adminId))).status).toBe(200);
  });

  it("names each session by its first message and persona, shows its newest turn's status, and counts what a waiting turn has spent", async () => {
    const { sessionId, continuationId } = await kidsWaitingTurn();
    const session = ((await json("/api/console", as(KID.id))).sessions as { id: string; title: string; persona: string | null; latestStatus: string; tokens: number }[]).find((s) => s.id === sessionId)!;
    expect(session).toMatchObject({ title: "Turn on the kitchen ceiling light", persona: null, latestStatus: "input_required" });
    // The turn waits for a yes after its model call: the tokens it spent show now, not when it ends.
    expect(session.tokens).toBeGreaterThan(0);
    const turn = await json(`/api/turns/${continuationId}`, as(KID.id));
    expect(turn.usage).toMatchObject({ modelCalls: 1, toolCalls: 0 });
    expect((turn.usage as { tokensIn: number }).tokensIn).toBeGreaterThan(0);

    const kid = await stack.connect(KID.tokens[0]!);
    const guided = (await callTool(kid, "ha_agent_start_session", { persona: "home_guide" })).value.session_id as string;
    await callTool(kid, "ha_agent_send_message", { session_id: guided, message: "Tell me about the upstairs rooms, which lights are on there, and whether any window was left open tonight" });
    const named = ((await json("/api/console", as(KID.id))).sessions as { id: string; title: string; persona: string | null }[]).find((s) => s.id === guided)!;
    expect(named).toMatchObject({ title: "Tell me about the upstairs rooms, which lights are on…", persona: "home_guide" });
  });

  it("refuses approve and cancel from anyone but the session's owner, and from another site", async () => {
    const { continuationId } = await kidsWaitingTurn();
    const approval = ((await json("/api/console", as(KID.id))).approvals as { continuationId: string; approvalId: string; canAnswer: boolean }[]).find((a) => a.continuationId === continuationId)!;
    expect(approval.canAnswer).toBe(true);
    const body = JSON.stringify({ approvalId: approval.approvalId, decision: "approve" });
    const post = (path: string, userId: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { method: "POST", body, headers: { "content-type": "application/json", "x-remote-user-id": userId, ...headers } });
    // The admin sees the turn but does not own it.
    const byAdmin = await post(`/api/turns/${continuationId}/approve`, adminId);
    expect(byAdmin.status).toBe(403);
    expect(((await byAdmin.json()) as { error: string }).error).toBe("not_owner");
    expect((await post(`/api/turns/${continuationId}/cancel`, adminId)).status).toBe(403);
    // Another user does not even see it.
    expect((await post(`/api/turns/${continuationId}/approve`, "stranger")).status).toBe(404);
    // The owner, but through another site's page.
    expect((await post(`/api/turns/${continuationId}/approve`, KID.id, { origin: "http://evil.example" })).status).toBe(403);
    expect((await post(`/api/turns/${continuationId}/approve`, KID.id, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    // A bad body is named.
    const bad = await fetch(`${base}/api/turns/${continuationId}/approve`, { method: "POST", body: JSON.stringify({ approvalId: approval.approvalId, decision: "maybe" }), headers: { "x-remote-user-id": KID.id, "sec-fetch-site": "same-origin" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/decision: expected approve or deny/);
    // The owner from the page itself.
    expect((await post(`/api/turns/${continuationId}/approve`, KID.id, { "sec-fetch-site": "same-origin" })).status).toBe(200);
    const done = await waitUntil(() => json(`/api/turns/${continuationId}`, as(KID.id)), (t) => t.status === "completed", 15_000);
    const entries = done.entries as { kind: string; decision?: string; via?: string }[];
    expect(entries.find((e) => e.kind === "decision")).toMatchObject({ decision: "approve", via: "console" });
    expect(entries.some((e) => e.kind === "tool")).toBe(true);
    expect(done.answer).toMatch(/^Done/);
    expect(done.cites).toContain(LIGHT);
  });

  it("streams the open session's events and the overview, resumes after Last-Event-ID, and never carries a secret", async () => {
    const { sessionId, continuationId } = await kidsWaitingTurn();
    const read = async (headers: Record<string, string>, until: RegExp) => {
      const abort = new AbortController();
      const res = await fetch(`${base}/api/stream?session=${sessionId}`, { headers: { "x-remote-user-id": KID.id, ...headers }, signal: abort.signal });
      expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
      const reader = res.body!.getReader();
      let text = "";
      const timer = setTimeout(() => abort.abort(), 10_000);
      try {
        while (!until.test(text)) {
          const { value, done } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
        }
      } finally {
        clearTimeout(timer);
        abort.abort();
      }
      return text;
    };
    const first = await read({}, /event: turn[\s\S]*"type":"approval"/);
    expect(first).toMatch(/event: overview/);
    const ids = [...first.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(0);
    const approval = ((await json("/api/console", as(KID.id))).approvals as { continuationId: string; approvalId: string }[]).find((a) => a.continuationId === continuationId)!;
    await fetch(`${base}/api/turns/${continuationId}/approve`, { method: "POST", body: JSON.stringify({ approvalId: approval.approvalId, decision: "deny" }), headers: { "x-remote-user-id": KID.id } });
    const resumed = await read({ "last-event-id": ids.at(-1)! }, /"type":"final"/);
    // Only what came after the last id seen: the decision and the end, not the first steps again.
    expect(resumed).not.toContain(`id: ${ids[0]}\n`);
    expect(resumed).toMatch(/"decision":"deny"/);
    for (const text of [first, resumed, JSON.stringify(await json("/api/console", as(KID.id))), JSON.stringify(await json(`/api/turns/${continuationId}`, as(KID.id))), JSON.stringify(await json("/api/usage", as(adminId)))]) {
      expect(text).not.toContain(stack.token);
      expect(text).not.toContain(KID.tokens[0]);
      expect(text).not.toContain(KEY);
    }
  });

  it("counts tokens per day and model, for the viewer's own turns unless an admin asks", async () => {
    await kidsWaitingTurn();
    const kids = (await json("/api/usage", as(KID.id))) as { days: string[]; rows: { model: string; turns: number }[] };
    expect(kids.days).toHaveLength(30);
    const admins = (await json("/api/usage", as(adminId))) as { rows: { model: string; turns: number }[] };
    const turns = (r: { rows: { turns: number }[] }) => r.rows.reduce((n, x) => n + x.turns, 0);
    expect(turns(kids)).toBeGreaterThan(0);
    expect(turns(admins)).toBe(turns(kids));
    expect(turns((await json("/api/usage", as("stranger"))) as { rows: { turns: number }[] })).toBe(0);
    expect(kids.rows.every((r) => r.model.length > 0)).toBe(true);
  });
});
