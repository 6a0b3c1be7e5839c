import { ModelNotAllowedError } from "./model-not-allowed-error.js";

/** What the owner allows callers to choose (`allowed_models`, `model_choice_for_everyone`). */
export interface ModelChoicePolicy {
  allowed: readonly string[];
  forEveryone: boolean;
}

/**
 * Whether `name` may run at all: the configured model always may, and
 * others only when `allowed_models` lists them. Throws the refusal that
 * names the option. No name means the configured model.
 */
export function checkAllowed(args: { name: string | undefined; configured: string | undefined; policy: ModelChoicePolicy }): void {
  const { name, configured, policy } = args;
  if (name === undefined || name === configured || policy.allowed.includes(name)) return;
  const fallback = configured ? `, or leave model out to use the configured model, ${configured}` : ", or leave model out";
  throw new ModelNotAllowedError("model_not_allowed", `model "${name}" is not allowed: add it to allowed_models (ALLOWED_MODELS)${fallback}.`);
}

/**
 * Whether this caller may choose `name`: it is allowed (above), and a model
 * other than the configured one is chosen by a Home Assistant administrator,
 * unless `model_choice_for_everyone` lets anyone.
 */
export function checkChoice(args: { name: string | undefined; configured: string | undefined; policy: ModelChoicePolicy; caller: { isAdmin: boolean } }): void {
  checkAllowed(args);
  const { name, configured, policy, caller } = args;
  if (name === undefined || name === configured || caller.isAdmin || policy.forEveryone) return;
  throw new ModelNotAllowedError(
    "model_admin_only",
    `model "${name}": only Home Assistant administrators may choose a model other than the configured one${configured ? ` (${configured})` : ""}. Leave model out, or ask an administrator to turn on model_choice_for_everyone (MODEL_CHOICE_FOR_EVERYONE).`,
  );
}
