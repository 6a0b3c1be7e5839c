import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { HaClient } from "../ha/index.js";
import type { HomeIndex } from "../indexer/index.js";
import type { Store } from "../store/index.js";
import { createCallServiceTool } from "./actions/index.js";
import { createGroundingTools } from "./grounding/index.js";
import { createSessionTools } from "./sessions/index.js";

/** Every list of strings a caller can send, as a path of property names (objects inside objects included). */
function stringLists(schema: unknown, path: string[], out: string[][]): void {
  if (!schema || typeof schema !== "object") return;
  const s = schema as Record<string, unknown>;
  if (s.type === "array" && (s.items as { type?: string } | undefined)?.type === "string") out.push(path);
  if (s.properties && typeof s.properties === "object") for (const [p, v] of Object.entries(s.properties)) stringLists(v, [...path, p], out);
  for (const key of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(s[key])) for (const v of s[key] as unknown[]) stringLists(v, path, out);
}

const at = (path: string[], value: unknown): unknown => path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);

/**
 * Every place in a JSON Schema where a caller could send an unbounded string
 * or list, and every map (an object of the caller's keys): a map's bound is
 * not published (Home Assistant's converters refuse or mangle maxProperties),
 * so it is checked by parsing instead.
 */
function unbounded(schema: unknown, path: string[], out: string[], maps: string[][]): void {
  if (!schema || typeof schema !== "object") return;
  const s = schema as Record<string, unknown>;
  const name = path.join(".");
  if (s.type === "string" && s.maxLength === undefined && s.enum === undefined && s.const === undefined && s.pattern === undefined) out.push(name);
  if (s.type === "array" && s.maxItems === undefined) out.push(`${name}[]`);
  if (s.type === "object" && s.additionalProperties !== undefined && s.additionalProperties !== false) maps.push(path);
  for (const [key, value] of Object.entries(s)) {
    if (key === "properties" && value && typeof value === "object") for (const [p, v] of Object.entries(value)) unbounded(v, [...path, p], out, maps);
    else if (key === "items" || key === "additionalProperties") unbounded(value, path, out, maps);
    else if ((key === "anyOf" || key === "oneOf" || key === "allOf") && Array.isArray(value)) for (const v of value) unbounded(v, path, out, maps);
  }
}

describe("tool input limits", () => {
  const tools = [
    ...createGroundingTools({ index: {} as HomeIndex, ha: {} as HaClient }),
    ...createSessionTools({ store: {} as Store }),
    createCallServiceTool({ index: {} as HomeIndex, ha: {} as HaClient, ceiling: { allow: false, allowlist: [] } }),
  ];

  it("bound every string, list and map a caller can send to any tool", () => {
    const found: string[] = [];
    const maps: string[][] = [];
    for (const tool of tools) unbounded(z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }), [tool.name], found, maps);
    expect(found).toEqual([]);
    const crowd = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, "x"]));
    for (const [name, ...path] of maps) {
      const parsed = tools.find((t) => t.name === name)!.input.safeParse(at(path, crowd));
      expect(parsed.error?.issues.filter((i) => i.path.join(".") === path.join(".")).map((i) => i.message), `${name}.${path.join(".")}`).toContainEqual(expect.stringMatching(/at most \d+/));
    }
    expect(maps.map((p) => p.join("."))).toEqual(expect.arrayContaining(["call_service.service_data", "start_session.persona_args"]));
  });

  it("refuse megabytes in start_session with a message naming the field and its limit", () => {
    const start = tools.find((t) => t.name === "start_session")!;
    const huge = "x".repeat(1_000_000);
    for (const args of [{ model: { name: huge } }, { preferences: { language: huge } }, { policy: { allowlisted_services: Array.from({ length: 10_000 }, () => "light.turn_on") } }]) {
      const parsed = start.input.safeParse(args);
      expect(parsed.success).toBe(false);
      expect(JSON.stringify(parsed.error?.issues)).toMatch(/at most \d+/);
    }
  });

  it("take one item where a list is expected, in every tool, and show the JSON list form where nothing can be taken", () => {
    const lists: string[] = [];
    for (const tool of tools) {
      const paths: string[][] = [];
      stringLists(z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }), [], paths);
      for (const path of paths) {
        lists.push(`${tool.name}.${path.join(".")}`);
        const where = (issues: z.core.$ZodIssue[]) => issues.filter((i) => i.path.join(".") === path.join("."));
        const one = tool.input.safeParse(at(path, "light.kitchen"));
        expect(where(one.error?.issues ?? []), `${tool.name}.${path.join(".")} with one item`).toEqual([]);
        const wrong = tool.input.safeParse(at(path, 42));
        expect(where(wrong.error?.issues ?? []).map((i) => i.message).join(), `${tool.name}.${path.join(".")} with a number`).toMatch(/in JSON: \[/);
      }
    }
    expect(lists).toEqual(expect.arrayContaining(["state_query.entity_ids", "render_context.entity_ids", "start_session.pins", "start_session.policy.allowlisted_services", "call_service.entity_id", "call_service.target.area_id"]));
  });
});
