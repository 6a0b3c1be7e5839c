import { z } from "zod";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The object a model meant when Home Assistant's Google integration gave it
 * `{"json": "<the object as JSON text>"}`: its `_format_schema` offers an
 * object without declared properties to Gemini as one string property,
 * `json`, and HA passes the model's arguments on unchanged
 * (google_generative_ai_conversation/entity.py, `_format_schema`,
 * `_transform_stream`). Anything else is returned as it is.
 */
export function fromGeminiJson(value: unknown): unknown {
  if (!isObj(value)) return value;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== "json" || typeof value.json !== "string") return value;
  const text = value.json.trim();
  if (text === "") return {};
  for (const attempt of [text, escapeControls(text)]) {
    try {
      const parsed: unknown = JSON.parse(attempt);
      return isObj(parsed) ? parsed : value;
    } catch {
      // HA's `_escape_decode` turns "\n" inside the JSON's strings into real newlines; the second attempt escapes them again.
    }
  }
  return value;
}

// JSON forbids raw control characters inside strings; the matched ones are exactly those.
// eslint-disable-next-line no-control-regex
const escapeControls = (text: string) => text.replace(/[\u0000-\u001f]/g, (c) => JSON.stringify(c).slice(1, -1));

/**
 * An object with keys of the caller's choosing (service data, an automation,
 * persona arguments), published as Home Assistant's converters take it:
 * `{type: "object", additionalProperties: true}`, or a typed value schema,
 * with no `propertyNames` and no `maxProperties`. The key bounds are checked
 * here instead, and said in the error; Google's `{"json": "..."}` form is
 * read as the object it holds.
 */
export function openObject<V extends z.ZodType = z.ZodUnknown>(o: { maxKeys: number; maxKeyLength?: number; value?: V }) {
  // Without a value schema, any value: `additionalProperties: {}`, which toolJsonSchema publishes as true.
  const base = z.object({}).catchall((o.value ?? z.unknown()) as V);
  const checked = base.check((ctx) => {
    const keys = Object.keys(ctx.value);
    if (keys.length > o.maxKeys) ctx.issues.push({ code: "custom", input: ctx.value, message: `at most ${o.maxKeys} keys` });
    const long = o.maxKeyLength === undefined ? undefined : keys.find((k) => k.length > o.maxKeyLength!);
    if (long !== undefined) ctx.issues.push({ code: "custom", input: ctx.value, message: `key "${long.slice(0, 80)}" is longer than ${o.maxKeyLength} characters` });
  });
  return z.preprocess(fromGeminiJson, checked);
}
