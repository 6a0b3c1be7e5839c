import { z } from "zod";
import { HaCommandError, type HaAccess } from "../../ha/index.js";
import { text } from "../limits.js";
import { defineTool, fail, ok, type ToolSpec } from "../tool.js";
import { guardedTime } from "./common.js";

export const TEMPLATE_MAX_CHARS = 20_000;
export const TEMPLATE_TIMEOUT_MS = { default: 3_000, max: 10_000 } as const;
/**
 * How deeply brackets may nest. Jinja parses nesting by recursion, so a
 * template nested thousands deep exhausts Python's recursion limit inside
 * Home Assistant, which then answers only "Unknown error"; real templates
 * nest a few levels.
 */
export const TEMPLATE_MAX_NESTING = 100;

const Input = z.object({
  template: text(TEMPLATE_MAX_CHARS).min(1).describe("e.g. \"{{ states('sensor.outside_temperature') }}\""),
  timeout_ms: z.number().int().min(100).max(TEMPLATE_TIMEOUT_MS.max).default(TEMPLATE_TIMEOUT_MS.default).describe("At most 10000"),
});

const Output = z.object({
  narrative: z.string(),
  result: z.string().describe("As Home Assistant rendered it; a number, list or boolean as JSON"),
  warnings: z.array(z.string()).describe("Home Assistant's warnings, e.g. an undefined name"),
});

/**
 * `render_template`: renders a template in Home Assistant exactly as an
 * automation or a dashboard would (HA's `render_template` subscription: the
 * first result, then it unsubscribes). HA's error is the failure's message.
 */
export function createRenderTemplateTool(deps: { ha: HaAccess }): ToolSpec {
  return defineTool({
    name: "render_template",
    title: "Render a template",
    description: "Renders a Home Assistant template (Jinja) in Home Assistant, e.g. to test one for an automation or dashboard.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    invoke: (args, ctx) =>
      guardedTime(undefined, async () => {
        const depth = bracketDepth(args.template);
        if (depth > TEMPLATE_MAX_NESTING) {
          return fail("template_too_deep", `The template nests brackets ${depth} deep; at most ${TEMPLATE_MAX_NESTING} is sent to Home Assistant, whose template parser cannot take much more. Split the expression or use variables ({% set %}).`);
        }
        const ha = deps.ha.forCaller(ctx.principal);
        let rendered;
        try {
          rendered = await ha.renderTemplate({ template: args.template, timeoutMs: args.timeout_ms });
        } catch (err) {
          if (err instanceof HaCommandError && err.code === "template_timeout") return fail("template_timeout", `${err.message} Make the template do less, or raise timeout_ms (at most ${TEMPLATE_TIMEOUT_MS.max}).`);
          if (err instanceof HaCommandError && err.code === "template_error") return fail("template_error", `Home Assistant could not render the template: ${err.message}`);
          // HA answers unknown_error when rendering failed outside Jinja's own errors (its recursion limit, say).
          if (err instanceof HaCommandError && err.code === "unknown_error") return fail("template_failed", "Home Assistant failed to render the template without saying why (its log may). Simplify the template, e.g. fewer nested expressions.");
          throw err;
        }
        const result = typeof rendered.result === "string" ? rendered.result : JSON.stringify(rendered.result);
        const kind = typeof rendered.result === "string" ? "text" : rendered.result === null ? "none" : Array.isArray(rendered.result) ? "a list" : typeof rendered.result;
        const warned = rendered.warnings.length ? ` Home Assistant warned: ${rendered.warnings.join("; ")}` : "";
        return ok({ narrative: `The template renders to ${kind === "text" ? JSON.stringify(result) : `${result} (${kind})`}.${warned}`, result, warnings: rendered.warnings });
      }),
  });
}

/** The deepest nesting of (), [] and {} outside quoted strings; unbalanced closers are ignored. */
export function bracketDepth(template: string): number {
  let depth = 0;
  let deepest = 0;
  let quote: string | undefined;
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "(" || c === "[" || c === "{") deepest = Math.max(deepest, ++depth);
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
  }
  return deepest;
}
