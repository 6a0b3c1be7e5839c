import { z } from "zod";

/** Settings of the Gemini provider; the options `gemini_api_key`, `gemini_base_url` and `model` map onto them. */
export const GeminiOptionsSchema = z.object({
  apiKey: z.string().trim().min(1, { message: "is missing: set gemini_api_key to a key from Google AI Studio" }),
  /** For proxies and tests; Google's endpoint when left out. */
  baseUrl: z.string().url({ message: "must be an http:// or https:// URL" }).optional(),
  model: z.string().trim().min(1),
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  /** How the model is named wherever a user reads it. */
  label: z.string().optional(),
  /** The provider name its turns carry (`demo` for the demo model, which speaks Gemini's wire format). */
  providerName: z.string().default("gemini"),
});
export type GeminiOptions = z.infer<typeof GeminiOptionsSchema>;

/**
 * The default Gemini model: the current generally available Flash model
 * (September 2026), built for tool use, with thinking, cheap enough for a
 * home, and no shutdown date announced. gemini-2.5-flash, the earlier
 * default, was retired on 2026-12-01, and Google moves older 3.x Flash
 * names onto newer ones.
 */
export const DEFAULT_GEMINI_MODEL = "gemini-3.8-flash";
