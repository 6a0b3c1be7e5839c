export { openGrantStore, NewGrantSchema, type NewGrant, type GrantStore, type GrantStoreOptions, type IssuedGrant } from "./store.js";
export { GrantLimitsSchema, type GrantLimits } from "./options.js";
export {
  GrantSchema,
  GrantsFileSchema,
  GrantPrincipalSchema,
  GrantSummarySchema,
  TokenResponseSchema,
  GRANTS_FORMAT_VERSION,
  summarizeGrant,
  type Grant,
  type GrantsFile,
  type GrantPrincipal,
  type GrantSummary,
  type TokenResponse,
} from "./schema.js";
export { createCodes, CodePayloadSchema, CODE_TTL_MS, MAX_OUTSTANDING_CODES, type Codes, type CodePayload, type CodeRedemption } from "./codes.js";
export { verifyPkceS256 } from "./pkce.js";
