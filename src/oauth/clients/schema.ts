import { z } from "zod";
import { MAX_REDIRECT_URI_LENGTH, redirectUriProblem } from "./redirect-uri.js";

export const MAX_REDIRECT_URIS = 10;
export const MAX_CLIENT_NAME_LENGTH = 200;

export const ApplicationTypeSchema = z.enum(["web", "native"], { error: 'application_type must be "web" or "native"' });

const redirectUriSchema = (homeHosts?: ReadonlySet<string>) =>
  z
    .string({ error: "each redirect URI must be a string" })
    .max(MAX_REDIRECT_URI_LENGTH, { error: `a redirect URI may be at most ${MAX_REDIRECT_URI_LENGTH} characters long` })
    .superRefine((uri, ctx) => {
      const problem = redirectUriProblem(uri, homeHosts);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });

/** The redirect URIs a client declares; `homeHosts` are names that may take Home Assistant's own callback over plain http. */
export const redirectUrisSchema = (homeHosts?: ReadonlySet<string>) =>
  z
    .array(redirectUriSchema(homeHosts), {
      error: (issue) => (issue.input === undefined ? "redirect_uris is required: list the URLs the browser may return to" : "redirect_uris must be a list of URLs"),
    })
    .min(1, { error: "redirect_uris must list at least one URL" })
    .max(MAX_REDIRECT_URIS, { error: `redirect_uris may list at most ${MAX_REDIRECT_URIS} URLs` });

/** The redirect URIs a client declares, in registration and in a metadata document alike. */
export const RedirectUrisSchema = redirectUrisSchema();

export const ClientNameSchema = z
  .string({ error: "client_name must be a string" })
  .max(MAX_CLIENT_NAME_LENGTH, { error: `client_name may be at most ${MAX_CLIENT_NAME_LENGTH} characters long` })
  // The name is shown on the consent page. Control characters, and invisible format characters (bidirectional
  // overrides and isolates such as U+202E, zero-width spaces and joiners, the BOM, line separators), only serve
  // to make it read as another name there.
  .refine((name) => !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(name), {
    error: "client_name must not contain control characters or invisible formatting characters (bidirectional marks such as U+202E, zero-width characters): use plain text",
  });

/** The members a registration and a metadata document share, checked the same way in both. */
export const ClientMetadataFields = {
  redirect_uris: RedirectUrisSchema,
  client_name: ClientNameSchema.optional(),
  application_type: ApplicationTypeSchema.default("web"),
  token_endpoint_auth_method: z
    .literal("none", { error: 'only public clients are supported: leave token_endpoint_auth_method out or set it to "none", and use PKCE' })
    .optional(),
};

/** A client the authorization server knows: one it registered, or one described by a metadata document. */
export const OAuthClientSchema = z.object({
  clientId: z.string(),
  /** What the sign-in page shows: the declared name, else the host of the client id or first redirect URI. */
  name: z.string(),
  redirectUris: z.array(z.string()),
  applicationType: ApplicationTypeSchema,
  kind: z.enum(["registered", "metadata_document"]),
});
export type OAuthClient = z.infer<typeof OAuthClientSchema>;

/** The first problem zod found, as "field: message" (the bare message when it is about the whole input). */
export function describeIssue(error: z.ZodError): { field: string | undefined; text: string } {
  const issue = error.issues[0];
  if (!issue || issue.path.length === 0) return { field: undefined, text: issue?.message ?? "the input is not valid" };
  const [first, ...rest] = issue.path;
  const field = String(first) + rest.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  return { field: String(first), text: `${field}: ${issue.message}` };
}

/** Drops null members: some clients send `null` for a field they leave unset. */
export function withoutNulls(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
}
