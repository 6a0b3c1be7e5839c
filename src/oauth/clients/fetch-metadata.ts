import { lookup as dnsLookup } from "node:dns/promises";
import { OAuthError } from "../errors.js";
import { MetadataDocumentSchema } from "./metadata-document.js";
import { pinnedGet, type CheckedAddress, type DocumentGet } from "./pinned-get.js";
import { isPrivateAddress, literalAddress } from "./private-address.js";
import { readCapped } from "./read-capped.js";
import { describeIssue, withoutNulls, type OAuthClient } from "./schema.js";

/** Resolves a host name to all its addresses, as `dns.promises.lookup(host, { all: true })`. */
export type LookupAll = (hostname: string, options: { all: true }) => Promise<{ address: string; family: number }[]>;

export interface FetchClientMetadataOptions {
  /** The client id: the document's URL. */
  url: string;
  /** Makes the request, connecting to the checked address; `pinnedGet` by default. */
  get?: DocumentGet;
  /** Allows http and hosts on private addresses: for tests only. */
  allowLocal: boolean;
  lookup?: LookupAll;
  timeoutMs?: number;
  maxBytes?: number;
}

/**
 * Fetches and checks the client ID metadata document at `url`. The fetch is guarded: https only, no redirects,
 * a deadline, a size cap, and no host on a private, loopback or link-local address (unless `allowLocal`). The
 * host is resolved once, every address checked, and the connection made to a checked one, so DNS cannot answer
 * differently in between. Every failure is an OAuthError `invalid_client` that says what is wrong with the
 * document and what to do, and never what an internal name resolves to.
 */
export async function fetchClientMetadata({
  url,
  get = pinnedGet,
  allowLocal,
  lookup = dnsLookup,
  timeoutMs = 5000,
  maxBytes = 10 * 1024,
}: FetchClientMetadataOptions): Promise<OAuthClient> {
  const refuse = (what: string): OAuthError => new OAuthError("invalid_client", `the client metadata document at ${url} ${what}`);
  const target = checkedUrl(url, allowLocal, refuse);
  const signal = AbortSignal.timeout(timeoutMs);
  const seconds = `${timeoutMs / 1000} s`;
  try {
    const address = allowLocal ? undefined : await checkPublicHost({ hostname: target.hostname, lookup, signal, refuse });
    // No redirects: the document must live at the client id itself, and a redirect could lead to a private host.
    const response = await get(target, { signal, ...(address ? { address } : {}) });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw refuse(`answers with a redirect (status ${response.status}): the client_id must be the document's final address`);
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      throw refuse(`answers with status ${response.status}: it must answer 200 with the JSON document`);
    }
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json" && !type.endsWith("+json")) {
      await response.body?.cancel().catch(() => undefined);
      throw refuse(`is served as "${type || "no content type"}": serve it as application/json`);
    }
    const body = await readCapped(response, maxBytes);
    if (!body) throw refuse(`is larger than ${maxBytes} bytes: keep the document under that size`);
    return clientFrom({ url, body, refuse });
  } catch (err) {
    if (err instanceof OAuthError) throw err;
    if (signal.aborted) throw refuse(`did not arrive within ${seconds}: make sure the server answers promptly`);
    throw refuse(`could not be fetched (${networkCause(err)}): check that the URL is right and its server is up`);
  }
}

/** The client id as a URL, when it may name a metadata document at all. */
function checkedUrl(url: string, allowLocal: boolean, refuse: (what: string) => OAuthError): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw refuse("is not a valid URL: a client_id URL must be absolute, such as https://app.example/client.json");
  }
  if (target.protocol !== "https:" && !(allowLocal && target.protocol === "http:")) throw refuse("is not served over https: a client_id URL must use https");
  if (target.username || target.password) throw refuse("carries a user name or password: remove them from the client_id");
  if (url.includes("#")) throw refuse("has a fragment (#…): a client_id URL must not have one");
  // Dot segments, odd case or default ports would make two texts name one document: ask for the normal form.
  if (target.href !== url) throw refuse(`is not written in normal form: use exactly ${target.href} as the client_id`);
  return target;
}

/** The address to connect to: the host's own if it is a literal, else the first its name resolves to, once every address it resolves to was found public. */
async function checkPublicHost(args: { hostname: string; lookup: LookupAll; signal: AbortSignal; refuse: (what: string) => OAuthError }): Promise<CheckedAddress | undefined> {
  const { hostname, refuse } = args;
  // Only ever "not allowed": saying which address a name has would let anyone look up names of the home network.
  const notAllowed = () => refuse("is on an address that is not allowed: the document must be on a public host, reachable from the internet");
  const literal = literalAddress(hostname);
  if (literal !== undefined) {
    if (isPrivateAddress(literal)) throw notAllowed();
    // Node connects to a literal without a lookup.
    return undefined;
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = await untilAborted(args.lookup(hostname, { all: true }), args.signal);
  } catch (err) {
    if (args.signal.aborted) throw err;
    throw refuse(`has a host, ${hostname}, that could not be resolved (${networkCause(err)}): check the host name`);
  }
  if (addresses.length === 0) throw refuse(`has a host, ${hostname}, with no addresses: check the host name`);
  // Every address must be public: a client may not point a name at the home network.
  if (addresses.some((a) => isPrivateAddress(a.address))) throw notAllowed();
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

function clientFrom({ url, body, refuse }: { url: string; body: Uint8Array; refuse: (what: string) => OAuthError }): OAuthClient {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body).toString("utf8"));
  } catch {
    throw refuse("is not valid JSON: serve the metadata as a JSON object");
  }
  const parsed = MetadataDocumentSchema.safeParse(withoutNulls(json));
  if (!parsed.success) throw refuse(`is not valid: ${describeIssue(parsed.error).text}`);
  const doc = parsed.data;
  if (doc.client_id !== url) throw refuse(`names client_id "${doc.client_id}": it must equal the document's URL exactly`);
  return {
    clientId: url,
    name: doc.client_name || new URL(url).host,
    redirectUris: doc.redirect_uris,
    applicationType: doc.application_type,
    kind: "metadata_document",
  };
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The short reason a network call failed: fetch hides it in `cause`. */
function networkCause(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  if (cause instanceof Error) return (cause as NodeJS.ErrnoException).code ?? cause.message;
  return String(cause);
}
