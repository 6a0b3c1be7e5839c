/**
 * Where the API lives under the configured base URL. People paste either
 * the server's address (`http://host:11434`) or the API root
 * (`http://host:11434/v1`, `https://openrouter.ai/api/v1`,
 * `https://generativelanguage.googleapis.com/v1beta/openai`), so the rule
 * is: when no path segment is a version (`v1`, `v1beta`, `v4`…), `/v1` is
 * appended; otherwise the path is used as it is. Trailing slashes go.
 */
export function apiRoot(baseUrl: string): string {
  const url = new URL(baseUrl);
  const segments = url.pathname.split("/").filter((s) => s !== "");
  if (!segments.some((s) => /^v\d+[a-z0-9]*$/i.test(s))) segments.push("v1");
  url.pathname = `/${segments.join("/")}`;
  url.search = "";
  url.hash = "";
  return url.toString().replace(/\/+$/, "");
}

export { displayUrl } from "../server-words.js";

/** OpenAI's reasoning models refuse `max_tokens`; every other server we know of reads only `max_tokens`. */
export function maxTokensField(baseUrl: string): "max_tokens" | "max_completion_tokens" {
  try {
    return new URL(baseUrl).hostname === "api.openai.com" ? "max_completion_tokens" : "max_tokens";
  } catch {
    return "max_tokens";
  }
}
