import type { z } from "zod";
import type { Principal } from "../shared/index.js";
import type { ApprovalCall, Policy } from "../store/index.js";

/**
 * A session's own limits on changing the home: the stored policy's fields.
 * `allowlistedServices` empty means whatever the ceiling allows. `approved`
 * is set for exactly one call a person approved: that call, with those
 * targets and that data, and nothing else.
 */
export type SessionActuation = Pick<Policy, "allowActuation" | "allowlistedServices"> & Partial<Pick<Policy, "approval">> & { approved?: ApprovalCall };

/** What a tool may learn about the call it is serving. */
export interface ToolCallContext {
  principal: Principal;
  /** Aborted when the caller cancels or the program shuts down. */
  signal: AbortSignal;
  /**
   * Set when the agent calls a tool for a session: that session's own limits
   * on changing the home, which can only narrow the add-on's options.
   */
  actuation?: SessionActuation;
  /** Reports progress to the caller; a no-op when the caller asked for none. */
  progress(update: { progress: number; total?: number; message?: string }): Promise<void>;
}

/** A failure the caller should read and act on. Tools return these; they do not throw them. */
export interface ToolFailure {
  /** Stable, machine-readable: `invalid_argument`, `not_found`, `ha_unavailable`, … */
  code: string;
  /** One or two sentences saying what went wrong and what to do. */
  message: string;
}

export type ToolOutcome<O> = { ok: true; value: O } | { ok: false; error: ToolFailure };

export const ok = <O>(value: O): ToolOutcome<O> => ({ ok: true, value });
export const fail = (code: string, message: string): ToolOutcome<never> => ({ ok: false, error: { code, message } });

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

// Schemas are zod objects so that MCP clients get an object-typed JSON Schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyObjectSchema = z.ZodObject<any>;

/**
 * One tool, usable both by MCP clients and by the agent inside the container.
 * Dependencies (index, HA client, store) are given to the factory that builds
 * the spec, so `invoke` sees only its arguments and the call context.
 */
export interface ToolSpec<I extends AnyObjectSchema = AnyObjectSchema, O extends AnyObjectSchema = AnyObjectSchema> {
  /** Base name in snake_case without the `ha_agent` prefix, e.g. `state_query`. */
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  invoke(args: z.infer<I>, ctx: ToolCallContext): Promise<ToolOutcome<z.infer<O>>>;
}

/** Keeps the generic parameters of a spec while storing it in a plain list. */
export function defineTool<I extends AnyObjectSchema, O extends AnyObjectSchema>(spec: ToolSpec<I, O>): ToolSpec {
  return spec as unknown as ToolSpec;
}
