import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import type { OAuthCaller, OAuthFront } from "../oauth/index.js";
import { silentLogger } from "../shared/index.js";
import { startMcpListener } from "./mcp-listener.js";

/** A front that spends its caller's budget for the client the request names, as the real one does, and says whose address it was. */
function fakeFront() {
  const served: string[] = [];
  const front = {
    owns: (path: string) => path.startsWith("/oauth/"),
    handle: async (req: IncomingMessage, res: ServerResponse, _path: string, caller: OAuthCaller) => {
      const taken = caller.spend(new URL(req.url ?? "/", "http://x").searchParams.get("client_id") ?? undefined);
      if (!taken.ok) return void res.writeHead(429, { "retry-after": String(Math.ceil(taken.retryAfterMs / 1000)) }).end();
      served.push(caller.address);
      res.end("ok");
    },
    challenge: () => undefined,
  } as unknown as OAuthFront;
  return { front, served };
}

async function listener(o: { perMinute: number; trustedProxies?: string[] }) {
  const { front, served } = fakeFront();
  const l = await startMcpListener({
    host: "127.0.0.1",
    port: 0,
    verifier: { verify: async () => undefined },
    mcp: { handle: async () => undefined } as never,
    health: () => ({ status: "ready" }) as never,
    logger: silentLogger,
    oauth: front,
    oauthPerMinute: o.perMinute,
    ...(o.trustedProxies ? { trustedProxies: o.trustedProxies } : {}),
  });
  const get = async (query: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${l.port}/oauth/authorize?${query}`, { headers });
    await res.text();
    if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    return res.status;
  };
  return { l, get, served };
}

describe("the MCP listener's sign-in routes", () => {
  it("give each address and client a budget, answering 429 with Retry-After past it, so one client cannot use up another's", async () => {
    const { l, get } = await listener({ perMinute: 3 });
    try {
      const a: number[] = [];
      for (let i = 0; i < 5; i++) a.push(await get("client_id=A"));
      expect(a).toEqual([200, 200, 200, 429, 429]);
      expect(await get("client_id=B")).toBe(200);
    } finally {
      await l.close();
    }
  });

  it("bound one address however many client ids it makes up", async () => {
    const { l, get } = await listener({ perMinute: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) statuses.push(await get(`client_id=c${i}`));
      // Four times the per-client budget, then the address is out.
      expect(statuses.filter((s) => s === 200)).toHaveLength(12);
      expect(statuses.slice(12)).toEqual([429, 429]);
    } finally {
      await l.close();
    }
  });

  it("behind a trusted proxy, budget each forwarded caller apart, and believe X-Forwarded-For from nobody else", async () => {
    const trusted = await listener({ perMinute: 2, trustedProxies: ["127.0.0.1"] });
    try {
      for (const who of ["10.0.0.1", "10.0.0.1", "10.0.0.2", "10.0.0.2"]) expect(await trusted.get("client_id=A", { "x-forwarded-for": `203.0.113.9, ${who}` })).toBe(200);
      expect(await trusted.get("client_id=A", { "x-forwarded-for": "10.0.0.1" })).toBe(429);
      expect(trusted.served).toEqual(["10.0.0.1", "10.0.0.1", "10.0.0.2", "10.0.0.2"]);
    } finally {
      await trusted.l.close();
    }
    const untrusted = await listener({ perMinute: 2 });
    try {
      expect(await untrusted.get("client_id=A", { "x-forwarded-for": "10.0.0.1" })).toBe(200);
      expect(await untrusted.get("client_id=A", { "x-forwarded-for": "10.0.0.2" })).toBe(200);
      expect(await untrusted.get("client_id=A", { "x-forwarded-for": "10.0.0.3" })).toBe(429);
      expect(untrusted.served).toEqual(["127.0.0.1", "127.0.0.1"]);
    } finally {
      await untrusted.l.close();
    }
  });
});
