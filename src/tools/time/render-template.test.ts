import { describe, expect, it } from "vitest";
import { HaCommandError, type CallerHa, type HaAccess } from "../../ha/index.js";
import { ToolRegistry } from "../registry.js";
import { bracketDepth, createRenderTemplateTool } from "./render-template.js";

/** Home Assistant as the tool sees it, rendering with `render`. */
function haRendering(render: CallerHa["renderTemplate"]): HaAccess {
  return { status: "connected", lastSeenAt: 0, forCaller: () => ({ renderTemplate: render }) as unknown as CallerHa };
}

const call = async (ha: HaAccess, args: Record<string, unknown>) => {
  const registry = new ToolRegistry();
  registry.register(createRenderTemplateTool({ ha }));
  return registry.call("render_template", args, { principal: { id: "u", name: "U", kind: "user", isAdmin: false }, signal: new AbortController().signal, progress: async () => {} });
};

describe("render_template's failures", () => {
  it("passes the time limit to Home Assistant and says what to do when it runs out", async () => {
    let asked: number | undefined;
    const out = await call(
      haRendering(async (args) => {
        asked = args.timeoutMs;
        throw new HaCommandError("template_timeout", "Home Assistant did not render the template within 250 ms.");
      }),
      { template: "{{ 1 }}", timeout_ms: 250 },
    );
    expect(asked).toBe(250);
    expect(out).toEqual({ ok: false, error: { code: "template_timeout", message: "Home Assistant did not render the template within 250 ms. Make the template do less, or raise timeout_ms (at most 10000)." } });
  });

  it("keeps Home Assistant's own message for a template it cannot render", async () => {
    const out = await call(
      haRendering(async () => {
        throw new HaCommandError("template_error", "UndefinedError: 'foo' is undefined");
      }),
      { template: "{{ foo.bar }}" },
    );
    expect(out).toEqual({ ok: false, error: { code: "template_error", message: "Home Assistant could not render the template: UndefinedError: 'foo' is undefined" } });
  });
});

describe("render_template's nesting limit", () => {
  it("counts brackets outside quoted strings only", () => {
    expect(bracketDepth("{{ (1 + (2 * [3][0])) }}")).toBe(5);
    expect(bracketDepth("{{ '((((((' ~ \"[[[[\" }}")).toBe(2);
    expect(bracketDepth("{{ 'it\\'s (' }}")).toBe(2);
    expect(bracketDepth(")))(")).toBe(1);
  });

  it("answers Home Assistant's bare unknown_error with its own code and what to do", async () => {
    const out = await call(
      haRendering(async () => {
        throw new HaCommandError("unknown_error", "Unknown error.");
      }),
      { template: "{{ 1 }}" },
    );
    expect(out).toMatchObject({ ok: false, error: { code: "template_failed", message: expect.stringMatching(/without saying why.*Simplify/) } });
  });
});
