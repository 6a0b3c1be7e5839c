import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "@ha-agent/model-fakes";
import { demoHouse, haStyleToken, startSimulator } from "@ha-agent/ha-simulator";
import { callTool } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

/**
 * Which models a caller may name, against the real program over real
 * sockets and a fake Ollama that logs every request. A name the owner did
 * not allow must be refused before anything reaches the model server, and
 * must leave nothing behind: an attacker once made the program set up a
 * client (six requests, kept forever) for each of 800 invented names.
 */

const MEMBER = { id: "a1b2c3d4e5f60718293a4b5c6d7e8f90", name: "Kim", isAdmin: false, tokens: [haStyleToken("kim")] };

const withMember = new WeakSet<object>();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function ollama(): Promise<FakeOllama> {
  const server = await startFakeOllama({ models: ["qwen3:8b", "qwen3:14b", "llama3.1:8b"], responder: (r) => ({ text: `Answered by ${r.model}.` }) });
  closers.push(() => server.close());
  return server;
}

/** The program on `server`'s qwen3:8b, with a non-admin member besides the admin the stack connects as. */
async function stackOn(server: FakeOllama, env: Record<string, string> = {}, more: Parameters<typeof startStack>[0] = {}): Promise<{ stack: Stack; member: Client }> {
  const stack = await startStack({ env: { MODEL_PROVIDER: "ollama", OLLAMA_URL: server.url, MODEL: "qwen3:8b", ...env }, ...more });
  closers.push(() => stack.close());
  // A simulator kept across a restart already knows the member.
  if (!withMember.has(stack.sim)) stack.sim.users.add(MEMBER);
  withMember.add(stack.sim);
  return { stack, member: await stack.connect(MEMBER.tokens[0]!) };
}

async function ask(client: Client, args: Record<string, unknown>) {
  return callTool(client, "ha_agent_ask", { message: "Which lights are on?", timeout_ms: 15_000, ...args });
}

describe("the model a caller names", () => {
  it("a non-admin naming 60 models never allowed: each is refused naming allowed_models, nothing reaches the model server, nothing is kept", async () => {
    const server = await ollama();
    const { stack, member } = await stackOn(server);
    const before = server.log.length;
    for (let i = 0; i < 60; i++) {
      const refused = await ask(member, { model: `invented-model-${i}` });
      expect(refused.isError, refused.text).toBe(true);
      expect(refused.text).toContain("model_not_allowed");
      expect(refused.text).toContain(`model "invented-model-${i}" is not allowed: add it to allowed_models`);
    }
    expect(server.log.slice(before)).toEqual([]);
    // Only the configured model's client, set up at start, is held.
    expect(stack.app.models.heldClients()).toBe(1);
    // Nor through a session: start_session and send_message refuse the same way.
    const started = await callTool(member, "ha_agent_start_session", { model: { name: "invented-model-x" } });
    expect(started.isError, started.text).toBe(true);
    expect(started.text).toContain("allowed_models");
    const session = (await callTool(member, "ha_agent_start_session", {})).value.session_id as string;
    const sent = await callTool(member, "ha_agent_send_message", { session_id: session, message: "hi", model: "invented-model-y" });
    expect(sent.isError, sent.text).toBe(true);
    expect(sent.text).toContain("allowed_models");
    expect(server.log.slice(before)).toEqual([]);
    expect(stack.app.models.heldClients()).toBe(1);
  });

  it("an admin may name an allowed model and not another; a non-admin only the configured one, unless model_choice_for_everyone", async () => {
    const server = await ollama();
    const { stack, member } = await stackOn(server, { ALLOWED_MODELS: "qwen3:14b" });

    const chosen = await ask(stack.client, { model: "qwen3:14b" });
    expect(chosen.isError, chosen.text).toBe(false);
    expect(chosen.value).toMatchObject({ status: "completed", response: { final_message: "Answered by qwen3:14b." } });

    const refused = await ask(stack.client, { model: "llama3.1:8b" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('model "llama3.1:8b" is not allowed: add it to allowed_models');

    const memberChoice = await ask(member, { model: "qwen3:14b" });
    expect(memberChoice.isError).toBe(true);
    expect(memberChoice.text).toContain("model_admin_only");
    expect(memberChoice.text).toContain("model_choice_for_everyone");
    const memberSession = await callTool(member, "ha_agent_start_session", { model: { name: "qwen3:14b" } });
    expect(memberSession.isError).toBe(true);
    expect(memberSession.text).toContain("model_choice_for_everyone");

    // Naming the configured model is no choice at all.
    const configured = await ask(member, { model: "qwen3:8b" });
    expect(configured.value).toMatchObject({ status: "completed", response: { final_message: "Answered by qwen3:8b." } });
    expect(server.chatRequests().map((e) => e.body?.model)).not.toContain("llama3.1:8b");
  });

  it("model_choice_for_everyone lets a non-admin choose among allowed_models, and still nothing else", async () => {
    const server = await ollama();
    const { member } = await stackOn(server, { ALLOWED_MODELS: "qwen3:14b", MODEL_CHOICE_FOR_EVERYONE: "true" });
    const chosen = await ask(member, { model: "qwen3:14b" });
    expect(chosen.value).toMatchObject({ status: "completed", response: { final_message: "Answered by qwen3:14b." } });
    const refused = await ask(member, { model: "llama3.1:8b" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("allowed_models");
  });

  it("a session whose stored model is no longer allowed after an option change is refused clearly at its next message", async () => {
    const server = await ollama();
    const sim = await startSimulator({ house: demoHouse() });
    closers.push(() => sim.close());
    const dataDir = await mkdtemp(join(tmpdir(), "ha-agent-model-choice-"));
    closers.push(() => rm(dataDir, { recursive: true, force: true }));
    const first = await stackOn(server, { ALLOWED_MODELS: "qwen3:14b" }, { sim, dataDir });
    const started = await callTool(first.stack.client, "ha_agent_start_session", { model: { name: "qwen3:14b" } });
    expect(started.isError, started.text).toBe(false);
    const sessionId = started.value.session_id as string;
    await first.stack.close();

    const { stack } = await stackOn(server, {}, { sim, dataDir });
    const before = server.log.length;
    const sent = await callTool(stack.client, "ha_agent_send_message", { session_id: sessionId, message: "hi" });
    expect(sent.isError).toBe(true);
    expect(sent.text).toContain('model "qwen3:14b" is not allowed: add it to allowed_models');
    expect(server.log.slice(before)).toEqual([]);
  });
});
