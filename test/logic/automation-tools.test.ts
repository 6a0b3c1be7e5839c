import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoHouse, haStyleToken, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { startConfigPostCounter, type ConfigPostCounter } from "../support/config-post-counter.js";
import { callTool } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

/** A Home Assistant user who is not an administrator. */
const MEMBER = { id: "0c5f1d2e3a4b4c6d8e9f0a1b2c3d4e5f", name: "Sam", isAdmin: false, tokens: [haStyleToken("sam-logic")] };
const HALL = "automation.hall_light_at_night";

interface Run {
  run_id: string;
  start: string;
  trigger: string;
  outcome: string;
  failed_condition?: { path: string; text: string };
  error?: string;
  narrative: string;
}

/**
 * The automation tools against the simulated demo house, over MCP and real
 * sockets. Config POSTs go through a counting proxy, so "nothing was saved"
 * means Home Assistant received nothing.
 */
describe("the automation tools over MCP", () => {
  let sim: Simulator;
  let counter: ConfigPostCounter;
  let edits: Stack;
  let noEdits: Stack;
  let member: Client;
  /** The config id of "Hall light at night", as its entity carries it. */
  const hallId = () => String(sim.home.getState(HALL)?.attributes.id);
  const inspect = async (automation: string, client?: Client) => callTool(client ?? edits.client, "ha_agent_automation_inspect", { automation });

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse() });
    sim.users.add(MEMBER);
    counter = await startConfigPostCounter(sim);
    edits = await startStack({ sim, env: { HA_URL: counter.url, ALLOW_AUTOMATION_EDITS: "true" } });
    noEdits = await startStack({ sim, env: { HA_URL: counter.url } });
    member = await edits.connect(MEMBER.tokens[0]!);
  }, 60_000);
  afterAll(async () => {
    await edits?.close();
    await noEdits?.close();
    await counter?.close();
    await sim?.close();
  });

  it("automation_inspect tells last night's 22:14 run of 'Hall light at night' as stopped at condition/1, naming the light and the state it saw", async () => {
    const reply = await inspect("Hall light at night");
    expect(reply.isError, reply.text).toBe(false);
    const { runs, ...rest } = reply.value as { runs: Run[] } & Record<string, unknown>;
    expect(rest).toMatchObject({ entity_id: HALL, id: hallId(), alias: "Hall light at night", state: "on", mode: "restart", diagnostics: [] });
    expect(rest.config).toMatchObject({ conditions: [{ alias: "Sun below horizon" }, { alias: "Hall light is off" }] });
    const [night, before] = runs;
    expect(night).toMatchObject({ outcome: "condition_failed", failed_condition: { path: "condition/1", text: "Hall light is off" } });
    expect(night!.start).toMatch(/T22:14:03\+0[12]:00$/);
    expect(night!.trigger).toContain("binary_sensor.hallway_motion_sensor_occupancy");
    expect(night!.narrative).toContain("turning on at 22:14 yesterday");
    expect(night!.narrative).toContain("the condition 'Sun below horizon' passed; the condition 'Hall light is off' failed: Hallway Ceiling (light.hallway_ceiling) was on, not off");
    expect(before).toMatchObject({ outcome: "finished", narrative: expect.stringContaining("ran light.turn_on on Hallway Ceiling (light.hallway_ceiling)") });
    expect(rest.summary).toMatch(/^Hall light at night \(automation.hall_light_at_night\) is on/);
    // The same automation, named by its entity id or its config id.
    for (const name of [HALL, hallId()]) expect((await inspect(name)).value.entity_id).toBe(HALL);
  });

  it("automation_inspect tells the washing machine's failed notification as an error, with the phone service Home Assistant has", async () => {
    const { value } = await inspect("automation.washing_machine_done");
    const [run] = value.runs as Run[];
    expect(run).toMatchObject({ outcome: "error", error: "Action notify.mobile_app_sams_phone not found." });
    expect(run!.narrative).toContain("notify.mobile_app_sams_phone failed: Action notify.mobile_app_sams_phone not found");
    expect(run!.narrative).toContain("it has notify.mobile_app_sam_phone");
  });

  it("automation_inspect finds the runs of an automation without an id under \"None\", and says Home Assistant cannot keep them and how to fix it", async () => {
    const { value } = await inspect("Towel radiator off at 9");
    expect(value).toMatchObject({ entity_id: "automation.towel_radiator_off_at_9", id: null, config: { alias: "Towel radiator off at 9" } });
    const [run] = value.runs as Run[];
    expect(run).toMatchObject({ outcome: "running", narrative: expect.stringContaining("ran switch.turn_off on") });
    expect(value.diagnostics).toEqual([expect.stringMatching(/has no id.*"None".*never finishes.*Give it an id/)]);
  });

  it("automation_inspect says why there are no runs: off, or never triggered", async () => {
    const off = await inspect("Garden Sprinkler Schedule");
    expect(off.value.runs).toEqual([]);
    expect(off.value.diagnostics).toEqual(expect.arrayContaining([expect.stringContaining("It is off"), expect.stringContaining("never triggered")]));
    const never = await inspect("Water Leak Alert");
    expect(never.value.diagnostics).toEqual([expect.stringContaining("never triggered")]);
  });

  it("trace gives last night's run step by step: the summary with the trigger's variables in brief, the full one with every variable", async () => {
    const [night] = (await inspect(HALL)).value.runs as Run[];
    const summary = await callTool(edits.client, "ha_agent_trace", { automation: HALL, run_id: night!.run_id });
    expect(summary.isError, summary.text).toBe(false);
    expect(summary.value).toMatchObject({ run_id: night!.run_id, entity_id: HALL, outcome: "condition_failed", failed_condition: { path: "condition/1" }, narrative: night!.narrative });
    const steps = summary.value.steps as { path: string; kind: string; result?: Record<string, unknown>; changed_variables?: Record<string, unknown> }[];
    expect(steps.map((s) => [s.path, s.kind])).toEqual([
      ["trigger/0", "trigger"],
      ["condition/0", "condition"],
      ["condition/0/entity_id/0", "condition"],
      ["condition/1", "condition"],
      ["condition/1/entity_id/0", "condition"],
    ]);
    expect(steps[4]!.result).toEqual({ result: false, state: "on", wanted_state: "off" });
    expect(steps[0]!.changed_variables).toEqual({ trigger: { platform: "state", entity_id: "binary_sensor.hallway_motion_sensor_occupancy", from: "off", to: "on", description: "state of binary_sensor.hallway_motion_sensor_occupancy" } });
    expect(steps.slice(1).every((s) => s.changed_variables === undefined)).toBe(true);
    expect(summary.value.notes).toEqual([expect.stringContaining('detail "full"')]);

    const full = await callTool(edits.client, "ha_agent_trace", { automation: HALL, run_id: night!.run_id, detail: "full" });
    const first = (full.value.steps as { changed_variables?: { this?: { entity_id?: string }; trigger?: { to_state?: { state?: string } } } }[])[0]!;
    expect(first.changed_variables?.this?.entity_id).toBe(HALL);
    expect(first.changed_variables?.trigger?.to_state?.state).toBe("on");
    expect(full.value.notes).toEqual([]);

    const missing = await callTool(edits.client, "ha_agent_trace", { automation: HALL, run_id: "0123456789abcdef" });
    expect(missing).toMatchObject({ isError: true, text: expect.stringMatching(/no stored run.*\(not_found\)$/) });
  });

  it("automation_check finds an unknown entity and an invalid trigger, renames the singular keys as HA does, and diffs against the saved automation", async () => {
    const draft = [
      "alias: Hall light at night",
      "trigger:",
      "  - platform: state",
      "    entity_id: binary_sensor.hallway_motion_sensor_occupancy",
      "    to: 'on'",
      "  - trigger: flying",
      "action:",
      "  - action: light.turn_on",
      "    target:",
      "      entity_id: light.hallway_ceilng",
    ].join("\n");
    const reply = await callTool(edits.client, "ha_agent_automation_check", { config_yaml: draft, id: hallId() });
    expect(reply.isError, reply.text).toBe(false);
    expect(reply.value.valid).toBe(false);
    expect(reply.value.problems).toEqual([
      { path: "triggers", message: "Invalid trigger 'flying' specified" },
      { path: "actions/0/target/entity_id", message: "light.hallway_ceilng is not an entity of this home; did you mean light.hallway_ceiling (Hallway Ceiling)?" },
    ]);
    expect(reply.value.normalized).toMatchObject({ id: hallId(), triggers: [{ trigger: "state" }, { trigger: "flying" }], actions: [{ action: "light.turn_on" }] });
    expect(reply.value.normalized).not.toHaveProperty("trigger");
    expect(reply.value.notes).toEqual(expect.arrayContaining([expect.stringContaining("Renamed 'trigger' to 'triggers'"), expect.stringContaining("'trigger:' for 'platform:'")]));
    expect(reply.value.changes).toMatch(/^--- saved .*\n\+\+\+ draft\n@@ /);
    expect(reply.value.changes).toContain("-conditions:\n");
    expect(reply.value.changes).toContain('+      entity_id: light.hallway_ceilng\n');
  });

  it("automation_check reads the same automation from config, config_yaml, YAML text in config (the older form) and Google's {json: text}; it refuses both or neither", async () => {
    const draft = { alias: "Porch off", triggers: [{ trigger: "time", at: "23:00:00" }], actions: [{ action: "light.turn_off", target: { entity_id: "light.porch_light" } }] };
    const yaml = "alias: Porch off\ntriggers:\n  - trigger: time\n    at: '23:00:00'\nactions:\n  - action: light.turn_off\n    target:\n      entity_id: light.porch_light\n";
    for (const args of [{ config: draft }, { config_yaml: yaml }, { config: yaml }, { config: { json: JSON.stringify(draft) } }]) {
      const reply = await callTool(edits.client, "ha_agent_automation_check", args);
      expect(reply.isError, reply.text).toBe(false);
      expect(reply.value, JSON.stringify(args)).toMatchObject({ valid: true, normalized: draft });
    }
    const both = await callTool(edits.client, "ha_agent_automation_check", { config: draft, config_yaml: yaml });
    expect(both).toMatchObject({ isError: true, text: expect.stringContaining("config_yaml: give the automation once") });
    const neither = await callTool(edits.client, "ha_agent_automation_check", { id: hallId() });
    expect(neither).toMatchObject({ isError: true, text: expect.stringContaining("config: give the automation: config (an object) or config_yaml (YAML text)") });
  });

  it("automation_save is refused while allow_automation_edits is off, and nothing reaches Home Assistant", async () => {
    const before = counter.posts.length;
    const reply = await callTool(noEdits.client, "ha_agent_automation_save", { config: { alias: "Porch off", triggers: [{ trigger: "time", at: "23:00:00" }], actions: [{ action: "light.turn_off", target: { entity_id: "light.porch_light" } }] } });
    expect(reply).toMatchObject({ isError: true, text: expect.stringMatching(/allow_automation_edits.*\(automation_edits_off\)$/) });
    expect(counter.posts.length).toBe(before);
  });

  it("automation_save refuses an invalid automation with its problems, and nothing reaches Home Assistant", async () => {
    const before = counter.posts.length;
    const reply = await callTool(edits.client, "ha_agent_automation_save", { config: { alias: "Broken", triggers: [{ trigger: "flying" }], actions: [{ action: "light.turn_on", target: { entity_id: "light.nowhere" } }] } });
    expect(reply).toMatchObject({ isError: true, text: expect.stringMatching(/Invalid trigger 'flying'.*light\.nowhere.*\(invalid_automation\)$/) });
    expect(counter.posts.length).toBe(before);
  });

  it("automation_save writes a new automation once, and confirms the entity Home Assistant made of it is on", async () => {
    const before = counter.posts.length;
    const reply = await callTool(edits.client, "ha_agent_automation_save", { config_yaml: "alias: Porch light off at midnight\ntriggers:\n  - trigger: time\n    at: '00:00:00'\nactions:\n  - action: light.turn_off\n    target:\n      entity_id: light.porch_light\n" });
    expect(reply.isError, reply.text).toBe(false);
    expect(reply.value).toMatchObject({ id: expect.stringMatching(/^\d{13}$/), entity_id: "automation.porch_light_off_at_midnight", created: true, state: "on" });
    expect(counter.posts).toHaveLength(before + 1);
    expect(sim.home.getState("automation.porch_light_off_at_midnight")?.attributes.id).toBe(reply.value.id);
  });

  it("answers admin_only on all four to someone who is not a Home Assistant administrator, and reads or writes nothing", async () => {
    const before = counter.posts.length;
    const calls: [string, Record<string, unknown>][] = [
      ["ha_agent_automation_inspect", { automation: HALL }],
      ["ha_agent_trace", { automation: HALL, run_id: "x" }],
      ["ha_agent_automation_check", { config: { triggers: [], actions: [] } }],
      ["ha_agent_automation_save", { config: { triggers: [{ trigger: "time", at: "01:00:00" }], actions: [] } }],
    ];
    for (const [name, args] of calls) {
      const reply = await callTool(member, name, args);
      expect(reply, name).toMatchObject({ isError: true, text: expect.stringMatching(/administrators only.*\(admin_only\)$/s) });
      expect(reply.text).not.toContain("Hall light is off");
    }
    expect(counter.posts.length).toBe(before);
  });
});
