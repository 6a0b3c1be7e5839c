export const REDACTED = "[redacted]";

// Key names whose string values are credentials. Numbers under such keys are
// counts (maxTokensPerTurn, promptTokenCount) and are kept.
const SECRET_KEY = /token|api[_-]?key|password|passwd|secret|authorization|cookie|credential/i;

// Secrets that can hide inside free text: bearer headers, JWTs (HA long-lived
// tokens are JWTs), Google and OpenAI-style API keys.
const SECRET_TEXT: RegExp[] = [
  /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bsk-[A-Za-z0-9_-]{20,}/g,
  /\b((?:api[_-]?key|token|password|secret)\s*[=:]\s*)["']?[^\s"',;&]{6,}/gi,
];

export function redactText(text: string): string {
  let out = text;
  for (const pattern of SECRET_TEXT) {
    out = out.replace(pattern, (match: string, prefix?: string) => {
      if (typeof prefix === "string" && /^bearer$/i.test(prefix)) return `${prefix} ${REDACTED}`;
      if (typeof prefix === "string") return `${prefix}${REDACTED}`;
      return REDACTED;
    });
  }
  return out;
}

/**
 * Returns a copy with secrets replaced, so a token never reaches disk. Runs on
 * every record, log line and text artifact before it is written.
 */
export function redactSecrets<T>(value: T): T {
  return redactValue(value, undefined) as T;
}

function redactValue(value: unknown, key: string | undefined): unknown {
  if (typeof value === "string") {
    if (key !== undefined && SECRET_KEY.test(key)) return REDACTED;
    return redactText(value);
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, undefined));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, k);
    return out;
  }
  return value;
}
