import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/models/index.js";
import { definePersona } from "../../src/personas/index.js";
import { z } from "zod";
import { connectLegacyClient } from "../support/mcp-legacy.js";
import { openListen } from "../support/mcp-raw.js";
import { startStack, type Stack } from "../support/stack.js";

const LIGHT = "light.kitchen_ceiling";
const BUILT_INS = ["automation_helper", "energy_analyst", "home_guide", "troubleshooter"];

describe("personas as MCP prompts", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("a 2025 client (v1 SDK) lists the four built-ins with their arguments", async () => {
    const { client } = await connectLegacyClient(stack.mcpUrl, stack.token);
    try {
      expect(client.getServerCapabilities()?.prompts).toEqual({ listChanged: true });
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(BUILT_INS);
      const trouble = prompts.find((p) => p.name === "troubleshooter")!;
      expect(trouble.arguments?.map((a) => a.name)).toEqual(["entity", "device", "area", "max_tokens"]);
      expect(prompts.find((p) => p.name === "energy_analyst")!.arguments?.find((a) => a.name === "period")?.required).toBe(true);
      const got = await client.getPrompt({ name: "troubleshooter", arguments: { entity: LIGHT } });
      expect((got.messages.at(-1)!.content as { text: string }).text).toContain(LIGHT);
    } finally {
      await client.close();
    }
  });

  it("prompts/get for the troubleshooter shows the entity's state as HA has it now, within the budget", async () => {
    stack.sim.home.setState(LIGHT, "on");
    await waitForState("on");
    const first = await stack.client.getPrompt({ name: "troubleshooter", arguments: { entity: LIGHT } });
    expect(first.messages).toHaveLength(2);
    expect((first.messages[0]!.content as { text: string }).text).toMatch(/troubleshooter/);
    const primed = (first.messages[1]!.content as { text: string }).text;
    expect(primed).toContain("- state: on");
    expect(primed).toMatch(/recent changes, last 24 h, newest first/);
    expect(estimateTokens(primed)).toBeLessThanOrEqual(1_500);

    stack.sim.home.setState(LIGHT, "off");
    await waitForState("off");
    const next = await stack.client.getPrompt({ name: "troubleshooter", arguments: { entity: LIGHT, max_tokens: "400" } });
    const again = (next.messages.at(-1)!.content as { text: string }).text;
    expect(again).toContain("- state: off");
    expect(estimateTokens(again)).toBeLessThanOrEqual(400);
  });

  it("prompts/get names a bad argument", async () => {
    await expect(stack.client.getPrompt({ name: "troubleshooter", arguments: { entity: "light.nowhere" } })).rejects.toThrow(/No entity "light.nowhere"/);
    await expect(stack.client.getPrompt({ name: "energy_analyst", arguments: {} })).rejects.toThrow(/period/);
  });

  it("completes an area argument with matching area names", async () => {
    const result = await stack.client.complete({ ref: { type: "ref/prompt", name: "troubleshooter" }, argument: { name: "area", value: "kit" } });
    expect(result.completion.values[0]).toBe("Kitchen");
    const entities = await stack.client.complete({ ref: { type: "ref/prompt", name: "troubleshooter" }, argument: { name: "entity", value: "kitchen ceil" } });
    expect(entities.completion.values).toContain(LIGHT);
    const free = await stack.client.complete({ ref: { type: "ref/prompt", name: "automation_helper" }, argument: { name: "goal", value: "kit" } });
    expect(free.completion.values).toEqual([]);
  });

  it("tells a 2026 client listening for prompts that the list changed", async () => {
    const listen = await openListen({ url: stack.mcpUrl, token: stack.token, notifications: { promptsListChanged: true } });
    try {
      await listen.waitFor((m) => m.method === "notifications/subscriptions/acknowledged");
      const extra = definePersona({ name: "night_watch", title: "Night watch", description: "d", version: "1", arguments: z.object({}), resolve: async () => ({ systemPrompt: "s", priming: "p", tools: [] }) });
      stack.app.personas.register(extra, { source: "test" });
      await listen.waitFor((m) => m.method === "notifications/prompts/list_changed");
      expect((await stack.client.listPrompts()).prompts.map((p) => p.name)).toContain("night_watch");
    } finally {
      stack.app.personas.unregisterSource("test");
      listen.close();
      await listen.ended;
    }
  });

  async function waitForState(state: string) {
    for (let i = 0; i < 100 && stack.app.index.entity(LIGHT)?.state?.state !== state; i++) await new Promise((r) => setTimeout(r, 20));
  }
});
