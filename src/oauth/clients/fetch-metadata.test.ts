import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { manualClock } from "../../shared/index.js";
import { OAuthError } from "../errors.js";
import { createClientDirectory, UNUSABLE_DOCUMENT } from "./directory.js";
import { fetchClientMetadata, type FetchClientMetadataOptions, type LookupAll } from "./fetch-metadata.js";
import { pinnedGet } from "./pinned-get.js";

const key = new Uint8Array(32).fill(3);
let server: Server;
let base: string;
const hits = new Map<string, number>();

// One path per way a document can be served, right or wrong.
function route(path: string, url: string): { status?: number; type?: string; headers?: Record<string, string>; body?: string | string[]; hang?: boolean } {
  const doc = (extra: object = {}) => JSON.stringify({ client_id: url, client_name: "Test App", redirect_uris: ["http://localhost/callback"], ...extra });
  switch (path) {
    case "/client.json":
    case "/client-b.json":
      return { body: doc() };
    case "/nameless.json":
      return { body: JSON.stringify({ client_id: url, redirect_uris: ["https://app.example/cb"] }) };
    case "/moved":
      return { status: 302, headers: { location: "/client.json" } };
    case "/missing":
      return { status: 404, body: "not here" };
    // Streamed in pieces without a length, so only the reader's cap can stop it.
    case "/big":
      return { body: [doc().slice(0, -1), ...Array.from({ length: 12 }, () => `,"pad${Math.random()}":"${"x".repeat(1000)}"`), "}"] };
    case "/slow":
      return { hang: true };
    case "/page":
      return { type: "text/html", body: "<html><body>metadata</body></html>" };
    case "/broken":
      return { body: "{ client_id: nope" };
    case "/other-id":
      return { body: doc({ client_id: "https://elsewhere.example/client.json" }) };
    case "/bad-redirect":
      return { body: doc({ redirect_uris: ["http://evil.example/callback"] }) };
    case "/bidi":
      return { body: doc({ client_name: "Claude\u202E edoC" }) };
    case "/confidential":
      return { body: doc({ token_endpoint_auth_method: "client_secret_post" }) };
    default:
      return { status: 404 };
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = route(path, `${base}${path}`);
    if (answer.hang) return;
    res.writeHead(answer.status ?? 200, { "content-type": answer.type ?? "application/json", ...answer.headers });
    for (const piece of [answer.body ?? ""].flat()) res.write(piece);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => hits.clear());

async function refusal(options: Partial<FetchClientMetadataOptions> & { url: string }): Promise<OAuthError> {
  try {
    await fetchClientMetadata({ allowLocal: true, ...options });
  } catch (err) {
    if (err instanceof OAuthError) return err;
    throw err;
  }
  throw new Error(`${options.url} was accepted`);
}

describe("client ID metadata documents", () => {
  it("resolve a client from its document", async () => {
    const directory = createClientDirectory({ key, allowLocal: true, clock: manualClock() });
    expect(await directory.resolve(`${base}/client.json`)).toEqual({
      clientId: `${base}/client.json`,
      name: "Test App",
      redirectUris: ["http://localhost/callback"],
      applicationType: "web",
      kind: "metadata_document",
    });
  });

  it("name a client without client_name after its URL's host", async () => {
    const directory = createClientDirectory({ key, allowLocal: true, clock: manualClock() });
    expect((await directory.resolve(`${base}/nameless.json`)).name).toBe(new URL(base).host);
  });

  it("are fetched once for an authorize and its token request, and again once the cache expires", async () => {
    const clock = manualClock();
    const directory = createClientDirectory({ key, allowLocal: true, clock });
    await directory.resolve(`${base}/client.json`);
    await directory.resolve(`${base}/client.json`);
    expect(hits.get("/client.json")).toBe(1);
    await Promise.all([directory.resolve(`${base}/client-b.json`), directory.resolve(`${base}/client-b.json`)]);
    expect(hits.get("/client-b.json")).toBe(1);
    clock.advance(6 * 60_000);
    await directory.resolve(`${base}/client.json`);
    expect(hits.get("/client.json")).toBe(2);
  });

  it("are fetched again after a failure rather than keeping it", async () => {
    const directory = createClientDirectory({ key, allowLocal: true, clock: manualClock() });
    await expect(directory.resolve(`${base}/broken`)).rejects.toThrow(OAuthError);
    await expect(directory.resolve(`${base}/broken`)).rejects.toThrow(OAuthError);
    expect(hits.get("/broken")).toBe(2);
  });

  it("answer one and the same sentence for every document that cannot be used, so no one can map names on the network by it", async () => {
    const lookup: LookupAll = async (hostname) => {
      if (hostname === "nowhere.example") throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.example"), { code: "ENOTFOUND" });
      return [{ address: hostname === "inside.example" ? "192.168.1.10" : "93.184.215.14", family: 4 }];
    };
    const directory = createClientDirectory({ key, allowLocal: false, lookup, clock: manualClock(), get: async () => new Response("{}", { status: 404, headers: { "content-type": "application/json" } }) });
    const answers = await Promise.all(
      ["https://nowhere.example/c.json", "https://inside.example/c.json", "https://public.example/c.json", "http://public.example/c.json"].map((id) => directory.resolve(id).catch((err: OAuthError) => err)),
    );
    const [unresolved, inside, missing, plain] = answers as OAuthError[];
    for (const err of answers as OAuthError[]) expect(err.message).toBe(UNUSABLE_DOCUMENT);
    expect(unresolved!.logDetail).toMatch(/could not be resolved/);
    expect(inside!.logDetail).toMatch(/not allowed/);
    expect(missing!.logDetail).toMatch(/status 404/);
    expect(plain!.logDetail).toMatch(/https/);
    expect(UNUSABLE_DOCUMENT).toMatch(/--client-id.*--callback-port.*--oauth-client-id/);
  });

  it("are refused over plain http unless local fetches are allowed, without fetching", async () => {
    const directory = createClientDirectory({ key, allowLocal: false, clock: manualClock() });
    // The caller is told one sentence for every unusable document; the reason is for the log.
    await expect(directory.resolve(`${base}/client.json`)).rejects.toMatchObject({ code: "invalid_client", message: UNUSABLE_DOCUMENT, logDetail: expect.stringMatching(/must use https/) });
    expect(hits.size).toBe(0);
  });

  it.each([
    ["a private address", "10.0.0.5"],
    ["a loopback address", "127.0.0.1"],
    ["a link-local address", "169.254.169.254"],
    ["a unique-local IPv6 address", "fd12::1"],
    ["an IPv4-mapped private address", "::ffff:192.168.1.10"],
    ["an IPv4-compatible loopback address", "::7f00:1"],
    ["a NAT64 form of a private address", "64:ff9b::a00:5"],
    ["a 6to4 form of a loopback address", "2002:7f00:1::1"],
  ])("are refused when the host resolves to %s, without fetching and without saying which", async (_name, address) => {
    let fetched = 0;
    const err = await refusal({
      url: "https://metadata.example/client.json",
      allowLocal: false,
      lookup: async () => [{ address: "93.184.215.14", family: 4 }, { address, family: address.includes(":") ? 6 : 4 }],
      get: async () => {
        fetched++;
        return new Response("{}");
      },
    });
    expect(err.code).toBe("invalid_client");
    expect(err.message).toMatch(/is on an address that is not allowed/);
    expect(err.message).not.toContain(address);
    expect(fetched).toBe(0);
  });

  it.each(["https://10.0.0.5/client.json", "https://[::1]/client.json", "https://127.0.0.1:8443/client.json", "https://[::7f00:1]/client.json", "https://[64:ff9b::a00:5]/client.json"])(
    "are refused at a literal private address such as %s, without a lookup",
    async (url) => {
      const err = await refusal({ url, allowLocal: false, lookup: () => Promise.reject(new Error("no lookup expected")) });
      expect(err.message).toMatch(/is on an address that is not allowed/);
    },
  );

  it("are fetched from the address that was checked, resolving the name once, so a second DNS answer cannot lead elsewhere", async () => {
    const url = "https://metadata.example/client.json";
    // A rebinding name: public the first time it is asked, loopback after.
    let lookups = 0;
    const lookup = async () => (lookups++ === 0 ? [{ address: "93.184.215.14", family: 4 }] : [{ address: "127.0.0.1", family: 4 }]);
    const asked: { url: string; address: unknown }[] = [];
    const client = await fetchClientMetadata({
      url,
      allowLocal: false,
      lookup,
      get: async (target, o) => {
        asked.push({ url: target.href, address: o.address });
        expect(o.signal).toBeInstanceOf(AbortSignal);
        return Response.json({ client_id: url, redirect_uris: ["https://app.example/cb"] });
      },
    });
    expect(client.redirectUris).toEqual(["https://app.example/cb"]);
    expect(lookups).toBe(1);
    expect(asked).toEqual([{ url, address: { address: "93.184.215.14", family: 4 } }]);
  });

  it("connect to the checked address with the document's own host name in Host, and follow no redirect", async () => {
    const signal = AbortSignal.timeout(5_000);
    const seen: string[] = [];
    const probe = createServer((req, res) => {
      seen.push(req.headers.host ?? "");
      res.writeHead(req.url === "/moved" ? 302 : 200, { "content-type": "application/json", location: "/client.json" }).end("{}");
    });
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    try {
      const probePort = (probe.address() as AddressInfo).port;
      // The name does not resolve anywhere: only the pinned address can have been used.
      const ok = await pinnedGet(new URL(`http://metadata.invalid:${probePort}/client.json`), { address: { address: "127.0.0.1", family: 4 }, signal });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({});
      const moved = await pinnedGet(new URL(`http://metadata.invalid:${probePort}/moved`), { address: { address: "127.0.0.1", family: 4 }, signal });
      expect(moved.status).toBe(302);
      expect(seen).toEqual([`metadata.invalid:${probePort}`, `metadata.invalid:${probePort}`]);
    } finally {
      probe.close();
    }
  });

  it.each([
    ["a redirect", "/moved", /redirect \(status 302\)/],
    ["a status other than 200", "/missing", /status 404/],
    ["a body over 10 KiB", "/big", /larger than 10240 bytes/],
    ["a page that is not JSON", "/page", /served as "text\/html": serve it as application\/json/],
    ["a body that does not parse", "/broken", /not valid JSON/],
    ["a client_id other than its URL", "/other-id", /names client_id "https:\/\/elsewhere.example\/client.json": it must equal the document's URL/],
    ["a redirect URI on plain http", "/bad-redirect", /redirect_uris\[0\]: .*use https/],
    ["a confidential client", "/confidential", /only public clients/],
    ["a name with a bidirectional override", "/bidi", /client_name: .*invisible formatting characters/],
  ])("are refused for %s", async (_name, path, message) => {
    const err = await refusal({ url: `${base}${path}` });
    expect(err.code).toBe("invalid_client");
    expect(err.message).toContain(`the client metadata document at ${base}${path} `);
    expect(err.message).toMatch(message);
  });

  it("are refused when the server does not answer in time", async () => {
    const err = await refusal({ url: `${base}/slow`, timeoutMs: 200 });
    expect(err.message).toMatch(/did not arrive within 0.2 s/);
  });

  it("are refused when the host lookup does not answer in time", async () => {
    const err = await refusal({ url: "https://metadata.example/client.json", allowLocal: false, timeoutMs: 200, lookup: () => new Promise(() => undefined) });
    expect(err.message).toMatch(/did not arrive within 0.2 s/);
  });

  it("are refused when the server cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await refusal({ url: `http://127.0.0.1:${port}/client.json` });
    expect(err.message).toMatch(/could not be fetched \(ECONNREFUSED\)/);
  });

  it.each([
    ["a URL not in normal form", "https://Metadata.example/a/../client.json", /normal form: use exactly https:\/\/metadata.example\/client.json/],
    ["a fragment", "https://metadata.example/client.json#x", /fragment/],
    ["a user name", "https://me@metadata.example/client.json", /user name/],
  ])("are refused for %s before any lookup", async (_name, url, message) => {
    const err = await refusal({ url, allowLocal: false, lookup: () => Promise.reject(new Error("no lookup expected")) });
    expect(err.message).toMatch(message);
  });
});
