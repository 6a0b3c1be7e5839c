import { describeError, type Principal } from "../shared/index.js";
import type { PersonaRegistry, PersonaSources } from "../personas/index.js";
import { PersonaError } from "../personas/index.js";
import type { PersonaChoice } from "../store/index.js";
import type { ContentProvider } from "./content-provider.js";
import { readJournal, type TurnJournal } from "./journal.js";
import type { PersonaDetail } from "./records.js";

/** The personas a turn can take on, and the view of the home they read. */
export interface TurnPersonas {
  registry: PersonaRegistry;
  context: PersonaSources;
}

/**
 * The persona of a turn: the journaled one when the turn already has one (a
 * resume keeps it, whatever its file says now), otherwise resolved against
 * the home as it is now and journaled before the first model call. Its
 * instructions go to the system prompt; its priming goes in as the turn's
 * retrieval, which the loop journals and a resume sends again.
 */
export async function takeOnPersona(args: {
  choice: PersonaChoice;
  personas: TurnPersonas | undefined;
  journal: TurnJournal;
  context: ContentProvider;
  /** The session's owner, whom the agent acts for: the priming shows what Home Assistant shows them. */
  caller: Principal;
}): Promise<{ ok: true; persona: PersonaDetail } | { ok: false; error: { code: string; message: string } }> {
  const journaled = (await readJournal(args.journal)).find((r) => r.type === "persona");
  if (journaled?.type === "persona") {
    args.context.set("persona", [journaled.detail.systemPrompt]);
    return { ok: true, persona: journaled.detail };
  }
  if (!args.personas) return { ok: false, error: { code: "unknown_persona", message: `This add-on has no personas, so "${args.choice.name}" cannot be used; start a session without one.` } };
  try {
    const resolved = await args.personas.registry.resolve({ name: args.choice.name, args: args.choice.args, ctx: { ...args.personas.context, caller: args.caller } });
    const persona: PersonaDetail = { name: resolved.name, version: resolved.version, systemPrompt: resolved.systemPrompt, tools: resolved.tools };
    await args.journal.append({ type: "persona", detail: persona });
    args.context.set("persona", [persona.systemPrompt]);
    args.context.add("retrieval", resolved.priming);
    return { ok: true, persona };
  } catch (err) {
    if (err instanceof PersonaError) return { ok: false, error: { code: err.code, message: err.message } };
    return { ok: false, error: { code: "persona_failed", message: `Persona ${args.choice.name} could not read the home: ${describeError(err)}. Send the message again in a moment.` } };
  }
}
