/** Google's JSON error shape, with the texts the real API uses. */
export function googleError(code: number, status: string, message: string, details?: unknown[]): { code: number; body: unknown } {
  return { code, body: { error: { code, message, status, ...(details ? { details } : {}) } } };
}

export const badKey = () =>
  googleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
    { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com", metadata: { service: "generativelanguage.googleapis.com" } },
  ]);

export const unknownModel = (model: string) =>
  googleError(404, "NOT_FOUND", `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`);

export const rateLimited = (retryDelay: string) =>
  googleError(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and billing details.", [
    { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests" }] },
    { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay },
  ]);

export const internal = () => googleError(500, "INTERNAL", "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting");
export const overloaded = () => googleError(503, "UNAVAILABLE", "The model is overloaded. Please try again later.");
export const invalid = (message: string) => googleError(400, "INVALID_ARGUMENT", message);
