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
