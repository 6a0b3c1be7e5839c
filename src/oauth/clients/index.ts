export { createClientDirectory, type ClientDirectory, type ClientDirectoryOptions } from "./directory.js";
export { registerClient, RegistrationBodySchema, RegistrationResponseSchema, type RegistrationResponse } from "./registration.js";
export { fetchClientMetadata, type FetchClientMetadataOptions, type LookupAll } from "./fetch-metadata.js";
export { redirectAllowed } from "./redirect-match.js";
export { OAuthClientSchema, type OAuthClient } from "./schema.js";
export { MIN_CLIENT_KEY_BYTES, REGISTERED_CLIENT_PREFIX } from "./client-id.js";
