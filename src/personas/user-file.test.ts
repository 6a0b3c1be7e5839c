import { describe, expect, it } from "vitest";
import { describeProblem, parsePersonaFile } from "./user-file.js";
import { argumentsOf } from "./persona.js";

const GOOD = `title: Night check
description: What is still on at night.
arguments:
  - name: area
    description: Where to look
    type: area
system_prompt: Check {{area}} before bed.
priming:
  entities: { area: "{{area}}", state: "on" }
tools: [state_query]
`;

describe("persona files", () => {
  it("takes the file's base name when it has no name, and reads its arguments", () => {
    const parsed = parsePersonaFile("/p/night_check.yaml", GOOD);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.spec.name).toBe("night_check");
    expect(argumentsOf(parsed.spec)).toEqual([
      { name: "area", description: "Where to look", required: false, kind: "area" },
      { name: "max_tokens", description: expect.any(String), required: false, kind: "string" },
    ]);
    expect(parsed.spec.version).toMatch(/^[0-9a-f]{12}$/);
  });

  it("names the file, the line and the field of a bad argument type", () => {
    const parsed = parsePersonaFile("/p/night.yaml", GOOD.replace("type: area", "type: bulb"));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problem).toMatchObject({ file: "/p/night.yaml", line: 6, field: "arguments.0.type" });
    expect(describeProblem(parsed.problem)).toMatch(/^\/p\/night.yaml line 6, arguments.0.type: .*"string"\|"entity"\|"area"\|"device"/);
  });

  it("names an unknown field at its line, and a YAML syntax error at its line", () => {
    const unknown = parsePersonaFile("/p/n.yaml", `${GOOD}colour: red\n`);
    expect(!unknown.ok && unknown.problem).toMatchObject({ line: 11, field: "colour" });
    const syntax = parsePersonaFile("/p/n.yaml", "title: x\ndescription: a: b\ntools: []\n");
    expect(!syntax.ok && syntax.problem).toMatchObject({ file: "/p/n.yaml", line: 2, field: undefined });
    const missing = parsePersonaFile("/p/n.yaml", "title: x\n");
    expect(!missing.ok && missing.problem).toMatchObject({ field: "description" });
  });

  it("lets a persona name the tools of the home's past and its automations, and names the choices for a tool it does not know", () => {
    const past = parsePersonaFile("/p/n.yaml", GOOD.replace("tools: [state_query]", "tools: [history, statistics, energy, automation_inspect, trace, render_template]"));
    expect(past.ok && past.spec).toMatchObject({ name: "n" });
    const unknown = parsePersonaFile("/p/n.yaml", GOOD.replace("tools: [state_query]", "tools: [state_query, logbook]"));
    expect(!unknown.ok && unknown.problem).toMatchObject({ line: 10, field: "tools.1" });
    if (!unknown.ok) expect(describeProblem(unknown.problem)).toMatch(/"history".*"automation_save"/);
  });
});
