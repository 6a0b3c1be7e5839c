import { z } from "zod";
import type { CallerHa, HaRequest } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { defineTool, type AnyObjectSchema, type ToolOutcome, type ToolSpec } from "../tool.js";
import { forCaller, type LogicDeps } from "./common.js";
import { resolveAutomation, type AutomationRef } from "./resolve.js";

/** What one automation tool that only reads says about itself, and its body, run with Home Assistant as the caller. */
export interface LogicReadTool<I extends AnyObjectSchema, O extends AnyObjectSchema> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /** Home Assistant's reads the body makes: a caller refused one of them is refused the tool at once. */
  needs: readonly HaRequest[];
  run(args: z.infer<I>, ha: CallerHa): Promise<ToolOutcome<z.infer<O>>>;
}

/**
 * An automation tool that only reads. The automation tools that read share
 * their annotations and their guard (admin reads checked up front, the index
 * ready, Home Assistant's failures as values), so each states only what it
 * reads and does.
 */
export function defineLogicReadTool<I extends AnyObjectSchema, O extends AnyObjectSchema>(deps: LogicDeps, tool: LogicReadTool<I, O>): ToolSpec {
  const { needs, run } = tool;
  return defineTool({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    input: tool.input,
    output: tool.output,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    needs,
    invoke: (args, ctx) => forCaller({ deps, principal: ctx.principal, needs }, (ha) => run(args, ha)),
  });
}

/** The input field of a tool about one automation or script, as `aboutAutomation` reads it. */
export const AutomationNamed = z.string().min(1).max(255).describe("Entity id, config id or name of an automation or script");

/**
 * A tool body about the automation or script that `args.automation` names:
 * it runs with that automation found in the index, and a name that finds
 * none is answered with the resolver's own failure.
 */
export function aboutAutomation<A extends { automation: string }, O>(index: HomeIndex, body: (ref: AutomationRef, args: A, ha: CallerHa) => Promise<ToolOutcome<O>>): (args: A, ha: CallerHa) => Promise<ToolOutcome<O>> {
  return async (args, ha) => {
    const found = resolveAutomation(index, args.automation);
    if (!found.ok) return found;
    return body(found.value, args, ha);
  };
}
