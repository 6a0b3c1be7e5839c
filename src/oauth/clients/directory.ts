import type { Clock } from "../../shared/index.js";
import { OAuthError } from "../errors.js";
import { checkClientKey, REGISTERED_CLIENT_PREFIX, verifyClientId } from "./client-id.js";
import { fetchClientMetadata, type LookupAll } from "./fetch-metadata.js";
import type { DocumentGet } from "./pinned-get.js";
import { registerClient, type RegistrationResponse } from "./registration.js";
import { parseUrl } from "./redirect-uri.js";
import type { OAuthClient } from "./schema.js";
import { createTtlCache } from "./ttl-cache.js";

/** How long a fetched metadata document is trusted: long enough for one sign-in, short enough to pick up edits. */
const METADATA_TTL_MS = 5 * 60_000;
const METADATA_CACHE_ENTRIES = 100;

export interface ClientDirectoryOptions {
  /** The HMAC key registered client ids are signed with (at least 32 bytes), kept in the data folder. */
  key: Uint8Array;
  /** Fetches metadata documents, connected to the address that was checked; `pinnedGet` by default. */
  get?: DocumentGet;
  /** Resolves metadata hosts; `dns.promises.lookup` by default. */
  lookup?: LookupAll;
  /** Allows metadata documents over http and on private addresses: for tests only. */
  allowLocal: boolean;
  clock: Clock;
}

/** Who the authorization server's clients are: the ones it registered and the ones that describe themselves by URL. */
export interface ClientDirectory {
  /** Dynamic registration (RFC 7591): the answer to send, or an OAuthError `invalid_redirect_uri` / `invalid_client_metadata`. */
  /** `homeHosts`: names whose Home Assistant callback may be plain http (see redirect-uri.ts). */
  register(body: unknown, homeHosts?: ReadonlySet<string>): RegistrationResponse;
  /** The client a client id names; OAuthError `invalid_client` for an unknown or altered id, or a metadata document that fails. */
  resolve(clientId: string): Promise<OAuthClient>;
}

export function createClientDirectory({ key, get, lookup, allowLocal, clock }: ClientDirectoryOptions): ClientDirectory {
  checkClientKey(key);
  const documents = createTtlCache<OAuthClient>({ clock, ttlMs: METADATA_TTL_MS, maxEntries: METADATA_CACHE_ENTRIES });
  return {
    register: (body, homeHosts) => registerClient({ body, key, now: clock.now(), ...(homeHosts ? { homeHosts } : {}) }),
    resolve: async (clientId) => {
      if (clientId.startsWith(REGISTERED_CLIENT_PREFIX)) {
        const client = verifyClientId(clientId, key);
        return {
          clientId,
          name: client.name ?? parseUrl(client.redirectUris[0]!)?.host ?? clientId,
          redirectUris: client.redirectUris,
          applicationType: client.applicationType,
          kind: "registered",
        };
      }
      if (isMetadataUrl(clientId)) {
        return documents.get(clientId, () =>
          fetchClientMetadata({ url: clientId, lookup, allowLocal, ...(get ? { get } : {}) }).catch((err: unknown) => {
            throw unusableDocument(clientId, err);
          }),
        );
      }
      throw new OAuthError(
        "invalid_client",
        "unknown client_id: register the client at the registration endpoint first, or use the https URL of its client metadata document as client_id",
      );
    },
  };
}

/** A client id that is a web URL with a path names a metadata document; the fetch itself refuses plain http. */
function isMetadataUrl(clientId: string): boolean {
  const url = parseUrl(clientId);
  return url !== undefined && (url.protocol === "https:" || url.protocol === "http:") && url.pathname !== "/";
}

/**
 * One answer for every metadata document that cannot be used, whatever the
 * reason: a different answer for a name that does not resolve and one on a
 * private address would let anyone who can open the sign-in page map names
 * on the network. The reason goes to the add-on's log only.
 */
function unusableDocument(clientId: string, err: unknown): OAuthError {
  const detail = err instanceof Error ? err.message : String(err);
  return new OAuthError("invalid_client", UNUSABLE_DOCUMENT, 400, { logDetail: `client metadata document ${clientId}: ${detail}` });
}

/** What a person is told when the client's metadata document cannot be used. */
export const UNUSABLE_DOCUMENT =
  "HA Agent could not use the document this app identifies itself with (its client_id is a web address; the add-on's log says why). " +
  "Claude Code and Codex identify themselves this way, and a Home Assistant without internet access cannot fetch their documents. " +
  "Register the app with HA Agent instead and give it the client id you get: for Claude Code, claude mcp add with --client-id and --callback-port; " +
  'for Codex, codex mcp add with --oauth-client-id. HA Agent\'s Documentation tab shows how, under "Apps that identify themselves by a web address".';
