import { createHmac, randomBytes } from "node:crypto";

/**
 * Thought signatures as Gemini 3 uses them: opaque tokens the server puts on
 * function-call parts and requires back, unchanged, on the same parts.
 * Here each is an HMAC of the call it signs, so a missing or altered one is
 * caught the way the real service catches it.
 */
export class SignatureBook {
  readonly #secret = randomBytes(32);

  sign(functionCall: unknown): string {
    return createHmac("sha256", this.#secret).update(canonical(functionCall)).digest("base64");
  }

  valid(functionCall: unknown, signature: unknown): boolean {
    return typeof signature === "string" && signature === this.sign(functionCall);
  }
}

/** JSON with keys in order, so a call that comes back with its keys reordered still matches. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
