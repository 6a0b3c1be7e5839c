import { z } from "zod";
import { ClientMetadataFields } from "./schema.js";

/** A client ID metadata document: the members this server uses; others are ignored. */
export const MetadataDocumentSchema = z.object(
  {
    client_id: z.string({ error: "client_id is required and must be the document's own URL" }),
    ...ClientMetadataFields,
  },
  { error: "the document must be a JSON object" },
);
export type MetadataDocument = z.infer<typeof MetadataDocumentSchema>;
