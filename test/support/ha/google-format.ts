/**
 * `_format_schema` of HA's Google Generative AI integration
 * (`homeassistant/components/google_generative_ai_conversation/entity.py`),
 * which turns the OpenAPI schema HA wrote for a tool into Gemini's Schema.
 * It keeps only `SUPPORTED_SCHEMA_KEYS` (after camelCase → snake_case), so
 * bounds, patterns, `anyOf`, `additionalProperties` and defaults are gone.
 */
const SUPPORTED = new Set(["type", "format", "description", "nullable", "enum", "max_items", "min_items", "properties", "required", "items"]);

type Json = Record<string, unknown>;

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/^_+/, "");

export function googleFormatSchema(schema: Json): Json {
  // allOf is not supported: the first branch with a type stands for all of them.
  const allOf = schema.allOf;
  if (Array.isArray(allOf) && allOf.length) return googleFormatSchema((allOf.find((s: Json) => "type" in s) ?? allOf[0]) as Json);
  const out: Json = {};
  for (const [rawKey, rawValue] of Object.entries(schema)) {
    const key = snake(rawKey);
    if (!SUPPORTED.has(key)) continue;
    let value = rawValue;
    if (key === "type") value = String(rawValue).toUpperCase();
    else if (key === "format") {
      const type = schema.type;
      if (type === "string" && !["enum", "date-time"].includes(String(rawValue))) continue;
      if (type === "number" && !["float", "double"].includes(String(rawValue))) continue;
      if (type === "integer" && !["int32", "int64"].includes(String(rawValue))) continue;
      if (!["string", "number", "integer"].includes(String(type))) continue;
    } else if (key === "items") value = googleFormatSchema(rawValue as Json);
    else if (key === "properties") value = Object.fromEntries(Object.entries(rawValue as Json).map(([k, v]) => [k, googleFormatSchema(v as Json)]));
    out[key] = value;
  }
  // Gemini takes enums of strings only: HA turns every other enum into strings.
  if (Array.isArray(out.enum) && out.enum.length && out.type !== "STRING") {
    out.type = "STRING";
    out.enum = out.enum.map((v) => (v === null ? "None" : typeof v === "boolean" ? (v ? "True" : "False") : String(v)));
  }
  // An object without properties is not supported by Gemini: HA offers one string property, "json", instead.
  if (out.type === "OBJECT" && !(out.properties && Object.keys(out.properties).length)) {
    out.properties = { json: { type: "STRING" } };
    out.required = [];
  }
  return out;
}
