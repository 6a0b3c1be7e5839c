import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAiServer, type FakeChatRequest, type FakeReply } from "@ha-agent/model-fakes";
import { haStyleToken } from "@ha-agent/ha-simulator";
import { callTool } from "../support/mcp.js";
import { openEvents, type SseEvent } from "../support/sse.js";
import { startStack, type Stack } from "../support/stack.js";

/** Reads the kitchen lights with a tool, then answers in many words, so the text streams in pieces. */
function planner(request: FakeChatRequest): FakeReply {
  const tools = request.messages.filter((m) => m.role === "tool");
  if (tools.length === 0) return { toolCalls: [{ name: "state_query", args: { area: "kitchen", domain: "light", state: "on" } }] };
  const entities = (JSON.parse(String(tools.at(-1)!.content)) as { entities: { entity_id: string }[] }).entities;
  return { text: `These kitchen lights are on right now: ${entities.map((e) => e.entity_id).join(", ")}. Nothing else is on there.` };
}

const replayable = (events: SseEvent[]) => events.filter((e) => e.id);

describe("GET /events/{session_id}", () => {
  let openai: Awaited<ReturnType<typeof startFakeOpenAiServer>>;
  let dataDir: string;
  let stack: Stack;
  const env = () => ({ MODEL_PROVIDER: "openai", OPENAI_BASE_URL: openai.baseUrl, MODEL: "qwen3:8b" });
  const otherToken = haStyleToken("events-other");

  beforeAll(async () => {
    openai = await startFakeOpenAiServer({ flavour: "llama-server", models: ["qwen3:8b"], responder: planner });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-events-"));
    stack = await startStack({ env: env(), dataDir });
    stack.sim.users.add({ id: "events-other", name: "Events Other", isAdmin: false, tokens: [otherToken] });
  });
  afterAll(async () => {
    await stack?.close();
    await openai?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function session(): Promise<string> {
    return (await callTool(stack.client, "ha_agent_start_session", {})).value.session_id as string;
  }

  it("streams progress, steps, partial text and the final event of a streamed turn, in order", async () => {
    const sessionId = await session();
    const reader = await openEvents(`${stack.baseUrl}/events/${sessionId}`, stack.token);
    expect(reader.status).toBe(200);
    expect(reader.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const sent = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "Which kitchen lights are on?", stream: true });
    expect(sent.value.stream_url).toBe(`/events/${sessionId}`);
    await reader.until((e) => e.event === "final");
    reader.close();
    const events = reader.events;
    const types = events.map((e) => e.event);
    expect(new Set(types)).toEqual(new Set(["progress", "step", "partial", "final"]));
    expect(types.at(-1)).toBe("final");
    // seq never goes back; replayable events have their own seqs, rising.
    const seqs = events.map((e) => e.data.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const ids = replayable(events).map((e) => e.data.seq);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of events) expect(e.data).toMatchObject({ type: e.event, session_id: sessionId, continuation_id: sent.value.continuation_id });
    for (const e of replayable(events)) expect(e.id).toBe(`${e.data.continuation_id}:${e.data.seq}`);
    // The tool's result comes before the text written after it.
    const toolStep = events.findIndex((e) => e.event === "step" && (e.data.payload.step as { type: string }).type === "tool_result");
    const firstPartial = events.findIndex((e) => e.event === "partial");
    expect(toolStep).toBeGreaterThanOrEqual(0);
    expect(firstPartial).toBeGreaterThan(toolStep);
    const final = events.at(-1)!.data.payload as { status: string; final_response: { finalMessage: string } };
    expect(final.status).toBe("completed");
    const text = events.filter((e) => e.event === "partial").map((e) => e.data.payload.partial_response).join("");
    expect(text).toBe(final.final_response.finalMessage);
  });

  it("answers 404 to another principal and to an unknown session, alike", async () => {
    const sessionId = await session();
    const other = await openEvents(`${stack.baseUrl}/events/${sessionId}`, otherToken);
    const unknown = await openEvents(`${stack.baseUrl}/events/01ARZ3NDEKTSV4RRFFQ69G5FAV`, stack.token);
    expect(other.status).toBe(404);
    expect(unknown.status).toBe(404);
    const anonymous = await fetch(`${stack.baseUrl}/events/${sessionId}`);
    expect(anonymous.status).toBe(401);
  });

  it("caps open streams per principal with 429 and Retry-After", async () => {
    const sessionId = await session();
    const readers = await Promise.all(Array.from({ length: 8 }, () => openEvents(`${stack.baseUrl}/events/${sessionId}`, stack.token)));
    expect(readers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const ninth = await fetch(`${stack.baseUrl}/events/${sessionId}`, { headers: { authorization: `Bearer ${stack.token}` } });
    expect(ninth.status).toBe(429);
    expect(Number(ninth.headers.get("retry-after"))).toBeGreaterThan(0);
    // Someone else's cap is their own.
    const mine = await callTool(await stack.connect(otherToken), "ha_agent_start_session", {});
    const theirs = await openEvents(`${stack.baseUrl}/events/${mine.value.session_id as string}`, otherToken);
    expect(theirs.status).toBe(200);
    theirs.close();
    for (const r of readers) r.close();
    await Promise.all(readers.map((r) => r.ended));
    await new Promise((r) => setTimeout(r, 100));
    const again = await openEvents(`${stack.baseUrl}/events/${sessionId}`, stack.token);
    expect(again.status).toBe(200);
    again.close();
  });

  it("replays what a dropped connection and a restart missed, once, from Last-Event-ID", async () => {
    const sessionId = await session();
    const whole = await openEvents(`${stack.baseUrl}/events/${sessionId}`, stack.token);
    const dropped = await openEvents(`${stack.baseUrl}/events/${sessionId}`, stack.token);
    const first = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "Which kitchen lights are on?" });
    const seen = await dropped.until((e) => e.event === "step");
    dropped.close();
    await whole.until((e) => e.event === "final" && e.data.continuation_id === first.value.continuation_id);

    const resumed = await openEvents(`${stack.baseUrl}/events/${sessionId}`, stack.token, seen.id);
    await resumed.until((e) => e.event === "final");
    resumed.close();
    expect([seen.id, ...replayable(resumed.events).map((e) => e.id)]).toEqual(replayable(whole.events).map((e) => e.id));
    // A replayed event is the event a listener saw.
    expect(replayable(resumed.events).map((e) => e.data.payload)).toEqual(replayable(whole.events).slice(1).map((e) => e.data.payload));

    // A second turn, then a restart on the same data: the ids are the same, and nothing is sent twice.
    const second = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "And now?" });
    await whole.until((e) => e.event === "final" && e.data.continuation_id === second.value.continuation_id);
    whole.close();
    await stack.close();
    stack = await startStack({ env: env(), dataDir, sim: undefined });
    stack.sim.users.add({ id: "events-other", name: "Events Other", isAdmin: false, tokens: [otherToken] });
    const firstFinal = replayable(whole.events).find((e) => e.event === "final")!;
    const afterRestart = await openEvents(`${stack.baseUrl}/events/${sessionId}`, stack.token, firstFinal.id);
    await afterRestart.until((e) => e.event === "final");
    afterRestart.close();
    const expected = replayable(whole.events).filter((e) => e.data.continuation_id === second.value.continuation_id).map((e) => e.id);
    expect(replayable(afterRestart.events).map((e) => e.id)).toEqual(expected);
  });
});
