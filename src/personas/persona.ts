import { z } from "zod";
import type { HaAccess } from "../ha/index.js";
import type { HomeIndex } from "../indexer/index.js";
import type { Clock, Logger, Principal } from "../shared/index.js";

/** What an argument names, so a client can complete it from the home. */
export const ARGUMENT_KINDS = ["string", "entity", "area", "device"] as const;
export const ArgumentKindSchema = z.enum(ARGUMENT_KINDS);
export type ArgumentKind = z.infer<typeof ArgumentKindSchema>;

/** Every persona takes `max_tokens`: the most the primed context may take. */
export const DEFAULT_MAX_TOKENS = 1_500;
export const MAX_TOKENS_LIMIT = 20_000;

/** Arguments arrive as strings from MCP clients, so the budget is read from one. */
export const maxTokensArgument = z.coerce
  .number()
  .int()
  .min(200, { error: "at least 200" })
  .max(MAX_TOKENS_LIMIT, { error: `at most ${MAX_TOKENS_LIMIT}` })
  .optional()
  .describe(`Most tokens the primed home context may take (default ${DEFAULT_MAX_TOKENS}).`);

/**
 * What a persona may read while it resolves: the home as the agent sees it
 * (only entities exposed to Assist), HA for history, logbook and logs as
 * `caller` may read them, the clock and the logger. Nothing that changes the
 * home.
 */
export interface PersonaContext {
  index: HomeIndex;
  ha: HaAccess;
  clock: Clock;
  logger: Logger;
  /** The person the persona is resolved for: its priming shows what Home Assistant shows them, and no more. */
  caller: Principal;
  /** Brings the view up to date (HA's Assist exposure settings) before a persona reads it. */
  refresh?(): Promise<void>;
  /** Home Assistant's time zone, in which priming writes every time; UTC without it. */
  timeZone?(): Promise<string>;
  /** The name HA shows every user for an entity, exposed or not: energy names devices by it, as the Energy dashboard does. */
  displayName?(entityId: string): string | undefined;
}

/** A persona context without its caller: what is set up once, and completed for each person it is resolved for. */
export type PersonaSources = Omit<PersonaContext, "caller">;

/** A resolved persona: how the model should behave, what it knows now, and the tools it may use (base names). */
export interface ResolvedPersona {
  systemPrompt: string;
  priming: string;
  tools: string[];
  /** What the budget left out, each with the tool that gets it. */
  omitted?: string[];
}

// Persona arguments are strings on the wire; the schema parses and checks them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyArgsSchema = z.ZodObject<any>;

/** One registry entry: like a tool's, with `resolve` in place of `invoke`. */
export interface PersonaSpec<A extends AnyArgsSchema = AnyArgsSchema> {
  /** The prompt name clients see, e.g. `troubleshooter`. */
  name: string;
  title: string;
  description: string;
  /** A number that changes whenever what the persona says or does changes; journaled with each turn. */
  version: string;
  arguments: A;
  /** Which arguments name something in the home; the others are free text. */
  kinds?: Partial<Record<keyof z.infer<A> & string, ArgumentKind>>;
  resolve(args: z.infer<A>, ctx: PersonaContext): Promise<ResolvedPersona>;
}

/** Keeps the generic parameters of a spec while storing it in a plain list. */
export function definePersona<A extends AnyArgsSchema>(spec: PersonaSpec<A>): PersonaSpec {
  return spec as unknown as PersonaSpec;
}

/** One argument as prompts/list shows it. */
export interface PersonaArgument {
  name: string;
  description?: string;
  required: boolean;
  kind: ArgumentKind;
}

/** The arguments of a spec, read from its schema: one source for listing, checking and completion. */
export function argumentsOf(spec: PersonaSpec): PersonaArgument[] {
  const kinds = (spec.kinds ?? {}) as Record<string, ArgumentKind | undefined>;
  return Object.entries(spec.arguments.shape as Record<string, z.ZodType>).map(([name, schema]) => ({
    name,
    ...(schema.description ? { description: schema.description } : {}),
    required: !schema.safeParse(undefined).success,
    kind: kinds[name] ?? "string",
  }));
}
