import { z } from "zod";
import { humanizeIssues, humanizeLine } from "./commands/index.js";

/**
 * HA's AUTH_MESSAGE_SCHEMA: `type` must be "auth", `access_token` and
 * `api_password` are optional strings that exclude each other, and nothing
 * else may be there. A message that fails it is answered with
 * `Auth message incorrectly formatted: <humanized error>`; one that passes
 * without a valid token with "Invalid access token or password".
 */
const AuthMessage = z.strictObject({
  type: z.literal("auth", { error: "not a valid value" }),
  access_token: z.string({ error: "expected str" }).optional(),
  api_password: z.string({ error: "expected str" }).optional(),
});

export type AuthCheck = { ok: true; accessToken: string | undefined } | { ok: false; message: string };

export function checkAuthMessage(msg: unknown): AuthCheck {
  const bad = (why: string): AuthCheck => ({ ok: false, message: `Auth message incorrectly formatted: ${why}` });
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) return bad(humanizeLine(msg, "expected a dictionary", []));
  // voluptuous checks groups of exclusion before anything else, and stops there.
  if (Object.hasOwn(msg, "access_token") && Object.hasOwn(msg, "api_password")) {
    return bad("two or more values in the same group of exclusion 'auth' @ data[<auth>]. Got None");
  }
  const parsed = AuthMessage.safeParse(msg);
  if (!parsed.success) return bad(humanizeIssues(msg, parsed.error.issues));
  return { ok: true, accessToken: parsed.data.access_token };
}
