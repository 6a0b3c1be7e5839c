import { z } from "zod";
import { OAuthError } from "../errors.js";
import { checkClientKey, signClientId } from "./client-id.js";
import { ApplicationTypeSchema, ClientMetadataFields, describeIssue, redirectUrisSchema, withoutNulls } from "./schema.js";

const GrantTypeSchema = z.enum(["authorization_code", "refresh_token"], { error: 'grant_types may hold only "authorization_code" and "refresh_token"' });

/** A dynamic registration request (RFC 7591 §2); members this server does not use are ignored. */
export const RegistrationBodySchema = z.object(
  {
    ...ClientMetadataFields,
    grant_types: z
      .array(GrantTypeSchema, { error: "grant_types must be a list" })
      .refine((grants) => grants.includes("authorization_code"), { error: 'grant_types must include "authorization_code"' })
      .optional(),
    response_types: z.tuple([z.literal("code")], { error: 'response_types must be ["code"] or left out' }).optional(),
    scope: z.string({ error: "scope must be a string of space-separated scopes" }).optional(),
  },
  { error: "the registration body must be a JSON object" },
);

/** The registration answer (RFC 7591 §3.2.1). */
export const RegistrationResponseSchema = z.object({
  client_id: z.string(),
  client_id_issued_at: z.number().int(),
  redirect_uris: z.array(z.string()),
  client_name: z.string().optional(),
  application_type: ApplicationTypeSchema,
  token_endpoint_auth_method: z.literal("none"),
  grant_types: z.array(GrantTypeSchema),
  response_types: z.array(z.literal("code")),
});
export type RegistrationResponse = z.infer<typeof RegistrationResponseSchema>;

/**
 * Registers a public client without storing anything: the client id it returns carries the client, signed
 * with `key`, so any later process holding the same key knows it. Refusals are OAuthErrors
 * `invalid_redirect_uri` or `invalid_client_metadata`. The caller limits the body's size. `homeHosts` are
 * the names Home Assistant and the add-on go by, whose HA callback may be plain http.
 */
export function registerClient({ body, key, now, homeHosts }: { body: unknown; key: Uint8Array; now: number; homeHosts?: ReadonlySet<string> }): RegistrationResponse {
  checkClientKey(key);
  const schema = homeHosts?.size ? RegistrationBodySchema.extend({ redirect_uris: redirectUrisSchema(homeHosts) }) : RegistrationBodySchema;
  const parsed = schema.safeParse(withoutNulls(body));
  if (!parsed.success) {
    const { field, text } = describeIssue(parsed.error);
    throw new OAuthError(field === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata", text);
  }
  const request = parsed.data;
  const issuedAt = Math.floor(now / 1000);
  const clientId = signClientId({ redirectUris: request.redirect_uris, name: request.client_name, applicationType: request.application_type, issuedAt }, key);
  return {
    client_id: clientId,
    client_id_issued_at: issuedAt,
    redirect_uris: request.redirect_uris,
    ...(request.client_name ? { client_name: request.client_name } : {}),
    application_type: request.application_type,
    token_endpoint_auth_method: "none",
    // The token endpoint hands out refresh tokens to every client, so the answer says so when the client did not ask.
    grant_types: request.grant_types ? [...new Set(request.grant_types)] : ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };
}
