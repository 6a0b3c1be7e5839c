import { z } from "zod";
import { ApplicationTypeSchema, ClientNameSchema, RedirectUrisSchema } from "./schema.js";

/** A client ID metadata document: the members this server uses; others are ignored. */
export const MetadataDocumentSchema = z.object(
  {
    client_id: z.string({ error: "client_id is required and must be the document's own URL" }),
    redirect_uris: RedirectUrisSchema,
    client_name: ClientNameSchema.optional(),
    application_type: ApplicationTypeSchema.default("web"),
    token_endpoint_auth_method: z
      .literal("none", { error: 'only public clients are supported: leave token_endpoint_auth_method out or set it to "none", and use PKCE' })
      .optional(),
  },
  { error: "the document must be a JSON object" },
);
export type MetadataDocument = z.infer<typeof MetadataDocumentSchema>;
