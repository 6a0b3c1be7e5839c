import { ModelNotAllowedError, type ModelClient } from "../models/index.js";
import { AgentError } from "./errors.js";
import type { AgentModels } from "./runtime-options.js";

/**
 * The client for a turn's model, once the owner's rules let this caller
 * use it. A refusal is thrown as it is, naming the option to change; any
 * other failure to set the model up is `no_model`.
 */
export async function modelFor(args: { models: AgentModels; name: string | undefined; caller: { isAdmin: boolean } }): Promise<ModelClient> {
  const { models, name, caller } = args;
  models.check(name, caller);
  const model = await models.get(name).catch((err: unknown) => {
    if (err instanceof ModelNotAllowedError) throw err;
    return undefined;
  });
  if (!model) throw new AgentError("no_model", models.missing());
  return model;
}
