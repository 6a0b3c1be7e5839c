import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "@ha-agent/ha-simulator";
import { callTool } from "../support/mcp.js";
import type { Stack } from "../support/stack.js";
import { MEMBER, startTimeStack } from "./time-house.js";

describe("ha_agent_render_template", () => {
  let stack: Stack;
  let sim: Simulator;
  beforeAll(async () => {
    ({ stack, sim } = await startTimeStack());
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it("returns Home Assistant's first rendering as text, with HA's warnings", async () => {
    const on = await callTool(stack.client, "ha_agent_render_template", { template: "The hall light is {{ states('light.hall_light') }}" });
    expect(on.value).toEqual({ narrative: 'The template renders to "The hall light is on".', result: "The hall light is on", warnings: [] });
    // HA reads the output back as a Python literal: a number stays a number, written as JSON here.
    const sum = await callTool(stack.client, "ha_agent_render_template", { template: "{{ states('sensor.hall_temperature') | float + 1 }}" });
    expect(sum.value).toMatchObject({ result: "20.5", narrative: "The template renders to 20.5 (number)." });
    const warned = await callTool(stack.client, "ha_agent_render_template", { template: "{{ nothing_here }}" });
    expect(warned.value.warnings).toEqual([expect.stringContaining("'nothing_here' is undefined")]);
  });

  it("fails with HA's own message when the template is broken", async () => {
    const broken = await callTool(stack.client, "ha_agent_render_template", { template: "{{ states('light.hall_light') | float }}" });
    expect(broken.isError).toBe(true);
    expect(broken.text).toBe(
      "Home Assistant could not render the template: ValueError: Template error: float got invalid input 'on' when rendering template and no default was specified (template_error)",
    );
  });

  it("refuses a template nested thousands deep with its own code and what to do, before Home Assistant sees it", async () => {
    const deep = await callTool(stack.client, "ha_agent_render_template", { template: `{{ ${"(".repeat(3000)}1${")".repeat(3000)} }}` });
    expect(deep.isError).toBe(true);
    expect(deep.text).toMatch(/^The template nests brackets 3002 deep; at most 100 .*Split the expression.*\(template_too_deep\)$/);
    const fine = await callTool(stack.client, "ha_agent_render_template", { template: `{{ ${"(".repeat(50)}1${")".repeat(50)} }}` });
    expect(fine.value).toMatchObject({ result: "1" });
  });

  it("is held to its time limit: Home Assistant refuses a slower template, with its own words", async () => {
    const slow = await callTool(stack.client, "ha_agent_render_template", { template: "{% for i in range(100000) %}{% for j in range(100) %}{{ i }}{% endfor %}{% endfor %}", timeout_ms: 100 });
    expect(slow.isError).toBe(true);
    expect(slow.text).toBe("Home Assistant could not render the template: Exceeded maximum execution time of 0.1s (template_error)");
    const over = await callTool(stack.client, "ha_agent_render_template", { template: "{{ 1 }}", timeout_ms: 60_000 });
    expect(over.text).toMatch(/timeout_ms: .*10000.*\(invalid_argument\)$/);
  });
});

/** Home Assistant opens history, statistics, energy and templates to every user, so HA Agent does too. */
describe("the time tools for a person who is not an administrator", () => {
  let stack: Stack;
  let sim: Simulator;
  let member: Client;
  beforeAll(async () => {
    ({ stack, sim } = await startTimeStack());
    member = await stack.connect(MEMBER.tokens[0]!);
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  it("answers all four as it answers an administrator", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["ha_agent_history", { entity_ids: ["light.hall_light"], start: "yesterday", end: "today" }],
      ["ha_agent_statistics", { entity_ids: ["sensor.grid_import"], start: "-7d", period: "day" }],
      ["ha_agent_energy", { start: "today", period: "week" }],
      ["ha_agent_render_template", { template: "{{ states('light.hall_light') }}" }],
    ];
    for (const [name, args] of calls) {
      const asMember = await callTool(member, name, args);
      expect(asMember.isError, `${name}: ${asMember.text}`).toBe(false);
      expect(asMember.value).toEqual((await callTool(stack.client, name, args)).value);
    }
  });
});
