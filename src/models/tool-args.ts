import { INVALID_TOOL_ARGS_KEY, type JsonValue } from "./schemas.js";

/**
 * The model's argument text as an object. Empty text means no arguments
 * (some servers send `""` for a tool without parameters). Anything that is
 * not a JSON object becomes `{[INVALID_TOOL_ARGS_KEY]: {text, problem}}`,
 * never an exception: the agent tells the model what went wrong.
 */
export function parseArguments(text: string): { [key: string]: JsonValue } {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { [INVALID_TOOL_ARGS_KEY]: { text, problem: `not valid JSON (${(err as Error).message})` } };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { [INVALID_TOOL_ARGS_KEY]: { text, problem: "valid JSON, but not an object of named arguments" } };
  }
  return value as { [key: string]: JsonValue };
}

