import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolRegistry, ToolRegistryError } from "./registry.js";
import { defineTool, fail, ok, type ToolCallContext } from "./tool.js";

const ctx = (signal = new AbortController().signal): ToolCallContext => ({
  principal: { id: "u1", name: "One", kind: "user", isAdmin: false },
  signal,
  progress: async () => undefined,
});

const echo = (invoke: (args: { text: string; times: number }) => unknown) =>
  defineTool({
    name: "echo",
    title: "Echo",
    description: "Repeats text.",
    input: z.object({ text: z.string(), times: z.number().int().min(1).default(1) }),
    output: z.object({ said: z.string() }),
    annotations: { readOnlyHint: true },
    invoke: async (args) => invoke(args) as never,
  });

describe("ToolRegistry", () => {
  it("names tools on the wire with the chosen separator and maps them back", () => {
    const underscore = new ToolRegistry("_");
    const dot = new ToolRegistry(".");
    expect(underscore.wireName("state_query")).toBe("ha_agent_state_query");
    expect(dot.wireName("state_query")).toBe("ha_agent.state_query");
    expect(dot.baseName("ha_agent.state_query")).toBe("state_query");
    expect(dot.baseName("ha_agent_state_query")).toBeUndefined();
  });

  it("refuses a duplicate name and a wire name longer than 64 characters", () => {
    const registry = new ToolRegistry();
    registry.register(echo(() => ok({ said: "" })));
    expect(() => registry.register(echo(() => ok({ said: "" })))).toThrow(ToolRegistryError);
    const long = { ...echo(() => ok({ said: "" })), name: "x".repeat(56) };
    expect(() => registry.register(long)).toThrow(/1-64 characters/);
  });

  it("validates arguments, applies defaults and names the bad argument", async () => {
    const registry = new ToolRegistry();
    registry.register(echo(({ text, times }) => ok({ said: text.repeat(times) })));
    expect(await registry.call("echo", { text: "hi" }, ctx())).toEqual({ ok: true, value: { said: "hi" } });
    const bad = await registry.call("echo", { text: "hi", times: 0 }, ctx());
    expect(bad).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    expect(!bad.ok && bad.error.message).toMatch(/^times: /);
  });

  it("returns a tool's own failure value unchanged", async () => {
    const registry = new ToolRegistry();
    registry.register(echo(() => fail("not_found", "Nothing to echo.")));
    expect(await registry.call("echo", { text: "x" }, ctx())).toEqual({ ok: false, error: { code: "not_found", message: "Nothing to echo." } });
  });

  it("turns a thrown error into an internal failure, or a cancellation when the caller aborted", async () => {
    const registry = new ToolRegistry();
    registry.register(echo(() => {
      throw new Error("disk on fire");
    }));
    const thrown = await registry.call("echo", { text: "x" }, ctx());
    expect(thrown).toMatchObject({ ok: false, error: { code: "internal" } });
    expect(!thrown.ok && thrown.error.message).toContain("disk on fire");
    const aborted = new AbortController();
    aborted.abort();
    expect(await registry.call("echo", { text: "x" }, ctx(aborted.signal))).toMatchObject({ ok: false, error: { code: "cancelled" } });
  });

  it("refuses a result that does not match the output schema, and strips unknown keys", async () => {
    const registry = new ToolRegistry();
    registry.register(echo(({ text }) => ok({ said: text, extra: true })));
    expect(await registry.call("echo", { text: "x" }, ctx())).toEqual({ ok: true, value: { said: "x" } });
    const wrong = new ToolRegistry();
    wrong.register(echo(() => ok({ said: 42 })));
    expect(await wrong.call("echo", { text: "x" }, ctx())).toMatchObject({ ok: false, error: { code: "internal" } });
  });

  it("answers an unknown tool with a failure that points at tools/list", async () => {
    const result = await new ToolRegistry().call("nope", {}, ctx());
    expect(result).toMatchObject({ ok: false, error: { code: "unknown_tool" } });
  });
});
