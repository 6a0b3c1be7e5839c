import type { z } from "zod";
import type { HaRequest } from "../ha/index.js";
import type { Principal } from "../shared/index.js";
import type { ApprovalCall, PendingApproval, Policy } from "../store/index.js";

/**
 * A session's own limits on changing the home: the stored policy's fields.
 * `allowlistedServices` empty means whatever the ceiling allows. `approved`
 * is set for exactly one call a person approved: that call, with those
 * targets and that data (or that automation config), and nothing else.
 */
export type SessionActuation = Pick<Policy, "allowActuation" | "allowlistedServices"> & Partial<Pick<Policy, "approval">> & { approved?: ApprovalCall };

/** What a tool may learn about the call it is serving. */
export interface ToolCallContext {
  principal: Principal;
  /** Aborted when the caller cancels or the program shuts down. */
  signal: AbortSignal;
  /**
   * Set whenever the agent calls a tool for a session (and only then): that
   * session's own limits on changing the home, which can only narrow the
   * add-on's options. An action a person must approve checks `approved`.
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
 * What the agent does with one call of an action before it runs: run it (the
 * tool itself allows or refuses it, with its own message), or ask a person
 * first about exactly `call`, the approval's own payload.
 */
export type ActionPlan = { kind: "run" } | { kind: "ask"; call: ApprovalCall; targetStates: PendingApproval["targetStates"]; why: PendingApproval["why"] };

/**
 * A tool that changes the home or its configuration. The agent runs its
 * calls one at a time, each behind a durable intent, after a person's yes
 * when `plan` asks for one; a resume never runs a journaled call blindly.
 */
export interface ToolAction {
  /** Decides, before the call runs, whether it waits for a person, and about exactly what. Raw arguments: a call the tool would refuse anyway runs and is refused. */
  plan(args: unknown, ctx: ToolCallContext): ActionPlan | Promise<ActionPlan>;
  /**
   * For a call whose intent was journaled but whose result was not (the
   * program stopped in between): finds out what happened without doing it
   * twice, and finishes it where that is safe. `ctx.actuation.approved` is
   * the call a person approved, if one did. Without it the outcome is unknown
   * and the model is told so.
   */
  settle?(args: unknown, ctx: ToolCallContext): Promise<ToolOutcome<unknown>>;
}

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
  /**
   * Home Assistant reads the tool cannot answer without. The agent does not
   * offer the tool to a session whose owner Home Assistant would refuse one
   * of them (src/ha/admin-reads.ts decides); callers get `admin_only`.
   */
  needs?: readonly HaRequest[];
  /** Set for a tool that changes the home or its configuration. */
  action?: ToolAction;
  invoke(args: z.infer<I>, ctx: ToolCallContext): Promise<ToolOutcome<z.infer<O>>>;
}

/** Keeps the generic parameters of a spec while storing it in a plain list. */
export function defineTool<I extends AnyObjectSchema, O extends AnyObjectSchema>(spec: ToolSpec<I, O>): ToolSpec {
  return spec as unknown as ToolSpec;
}
