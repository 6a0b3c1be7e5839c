import { ProtocolError, ProtocolErrorCode, type Prompt, type Server } from "@modelcontextprotocol/server";
import { argumentsOf, completeArgument, PersonaError, type PersonaRegistry, type PersonaSources } from "../personas/index.js";
import type { Logger } from "../shared/index.js";
import { describeError } from "../shared/index.js";
import { principalFromAuthInfo } from "./principal.js";

/** What serves prompts: the personas, and the home they are resolved against. */
export interface PromptSource {
  registry: PersonaRegistry;
  context: PersonaSources;
}

/** The personas as MCP prompts, with their arguments. */
export function describePrompts(registry: PersonaRegistry): Prompt[] {
  return registry.list().map(({ spec }) => ({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    arguments: argumentsOf(spec).map((a) => ({ name: a.name, ...(a.description ? { description: a.description } : {}), required: a.required })),
  }));
}

/**
 * Serves `prompts/list`, `prompts/get` and `completion/complete` from the
 * personas. A get resolves the persona against the home as it is now: the
 * persona's instructions first, then the primed facts as the last user
 * message, so a client that shows the prompt as a conversation shows the
 * home's facts last.
 */
export function bridgePrompts(server: Server, options: { source: PromptSource; logger: Logger }): void {
  const { registry, context } = options.source;
  server.setRequestHandler("prompts/list", async () => ({ prompts: describePrompts(registry) }));
  server.setRequestHandler("prompts/get", async (request, extra) => {
    const { name, arguments: args } = request.params;
    // The listener lets no request in without a caller; should one lack it, it is nobody's admin.
    const caller = principalFromAuthInfo(extra.http?.authInfo) ?? { id: "unknown", name: "unknown", kind: "user" as const, isAdmin: false };
    try {
      // Resolved for the caller: the priming shows what Home Assistant shows them, and no more.
      const resolved = await registry.resolve({ name, args: args ?? {}, ctx: { ...context, caller } });
      return {
        description: registry.get(name)?.description,
        messages: [
          { role: "user" as const, content: { type: "text" as const, text: resolved.systemPrompt } },
          { role: "user" as const, content: { type: "text" as const, text: resolved.priming } },
        ],
      };
    } catch (err) {
      if (err instanceof PersonaError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${err.message} (${err.code})`);
      options.logger.warn({ persona: name, err: describeError(err) }, "a persona could not be resolved");
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Persona ${name} could not read the home: ${describeError(err)}. Try again in a moment.`);
    }
  });
  server.setRequestHandler("completion/complete", async (request) => {
    const { ref, argument } = request.params;
    const spec = ref.type === "ref/prompt" ? registry.get(ref.name) : undefined;
    const kind = spec ? argumentsOf(spec).find((a) => a.name === argument.name)?.kind : undefined;
    if (!kind) return { completion: { values: [], total: 0, hasMore: false } };
    const { values, total } = completeArgument({ kind, value: argument.value, index: context.index });
    return { completion: { values, total, hasMore: total > values.length } };
  });
}
