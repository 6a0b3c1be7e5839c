/**
 * How long a 429 (or 503) asks us to wait, in ms: `retry-after-ms` (OpenAI),
 * else `Retry-After` as seconds or as an HTTP date. Undefined when the
 * server did not say, or said something unreadable.
 */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(after)) return Math.ceil(Number(after) * 1000);
  const at = Date.parse(after);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
