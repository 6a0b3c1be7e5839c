import { z } from "zod";
import { PERSONA_TOOL_NAMES } from "../tools/index.js";
import { ArgumentKindSchema, MAX_TOKENS_LIMIT } from "./persona.js";

/** A persona or argument name: what a client types after "/". */
const Name = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, { error: "use lowercase letters, digits and _ (starting with a letter, at most 64)" });

/** A text that may hold `{{argument}}` placeholders. */
const Template = z.string().min(1).max(500);

/** Which entities to prime with: the filters of state_query, each a text or a placeholder. */
const EntityFilterSchema = z.strictObject({
  area: Template.optional(),
  floor: Template.optional(),
  domain: Template.optional(),
  device_class: Template.optional(),
  label: Template.optional(),
  state: Template.optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

/**
 * One persona file (`*.yaml` in the personas folder). The one source of its
 * shape: the loader checks every file against it and reports the first
 * problem with the file, the line and the field.
 */
export const UserPersonaFileSchema = z.strictObject({
  name: Name.optional().describe("The prompt's name; the file's base name when left out."),
  title: z.string().min(1).max(100),
  description: z.string().min(1).max(1_000),
  /** Takes a built-in's name; without it a clash is refused. */
  replaces: Name.optional(),
  arguments: z
    .array(
      z.strictObject({
        name: Name,
        description: z.string().max(500).optional(),
        required: z.boolean().default(false),
        type: ArgumentKindSchema.default("string"),
      }),
    )
    .max(20)
    .default([]),
  system_prompt: z.string().min(1).max(20_000),
  priming: z
    .strictObject({
      /** Entities and their states, filtered like state_query. */
      entities: EntityFilterSchema.optional(),
      /** The floors and areas and what is in them; `true`, or a floor or area to narrow to. */
      areas: z.union([z.literal(true), z.strictObject({ area: Template.optional(), floor: Template.optional() })]).optional(),
      /** diagnose_entity for these entities (ids or placeholders). */
      diagnose: z.union([Template, z.array(Template).max(5)]).optional(),
      /** analyze_errors: warnings and errors from the logs, optionally of one integration. */
      errors: z.union([z.literal(true), z.strictObject({ integration: Template.optional(), since_hours: z.number().positive().max(720).default(24) })]).optional(),
      /** The energy and power sensors, largest first; `true`, or an area. */
      energy: z.union([z.literal(true), z.strictObject({ area: Template.optional() })]).optional(),
    })
    .default({}),
  tools: z.array(z.enum(PERSONA_TOOL_NAMES)).max(PERSONA_TOOL_NAMES.length).default(["index_search", "state_query"]),
  max_tokens: z.number().int().min(200).max(MAX_TOKENS_LIMIT).optional(),
});

export type UserPersonaFile = z.infer<typeof UserPersonaFileSchema>;
