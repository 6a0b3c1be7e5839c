import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolRegistry, defineTool, ok } from "../tools/index.js";
import { agentTools } from "./agent-tools.js";

const registry = new ToolRegistry();
for (const name of ["index_search", "history", "statistics", "energy", "render_template", "render_context"]) {
  registry.register(defineTool({ name, title: name, description: name, input: z.object({}), output: z.object({}), annotations: {}, invoke: async () => ok({}) }));
}
const base = { registry, principal: { id: "u", name: "U", kind: "user" as const, isAdmin: false }, actuation: undefined, maxResultChars: 1000, saveLarge: async () => ({ id: "A" }) };
const offered = (only?: string[]) => agentTools({ ...base, ...(only ? { only } : {}) }).map((t) => t.declaration.name);

describe("the time tools for the agent", () => {
  it("offers history, statistics and energy by default, to every user", () => {
    expect(offered()).toEqual(["index_search", "history", "statistics", "energy"]);
  });

  it("offers render_template only to a persona that names it: a template reads entities not exposed to Assist", () => {
    expect(offered(["index_search", "render_template"])).toEqual(["index_search", "render_template"]);
    expect(offered(["energy", "statistics", "history"])).toEqual(["history", "statistics", "energy"]);
  });

  it("offers render_context only to a persona that names it: it is for a client's own model, and each declaration costs room in every request", () => {
    expect(offered()).not.toContain("render_context");
    expect(offered(["index_search", "render_context"])).toEqual(["index_search", "render_context"]);
  });
});
