import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import type { OAuthFront } from "../oauth/index.js";
import { silentLogger } from "../shared/index.js";
import { startMcpListener } from "./mcp-listener.js";

describe("the MCP listener's sign-in routes", () => {
  it("give each address a budget of requests, answering 429 with Retry-After past it, and never reach the front then", async () => {
    let served = 0;
    const front = {
      owns: (path: string) => path.startsWith("/oauth/"),
      handle: async (_req: IncomingMessage, res: ServerResponse) => {
        served++;
        res.end("ok");
      },
      challenge: () => undefined,
    } as unknown as OAuthFront;
    const listener = await startMcpListener({
      host: "127.0.0.1",
      port: 0,
      verifier: { verify: async () => undefined },
      mcp: { handle: async () => undefined } as never,
      health: () => ({ status: "ready" }) as never,
      logger: silentLogger,
      oauth: front,
      oauthPerMinute: 3,
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`http://127.0.0.1:${listener.port}/oauth/token`, { method: "POST" });
        statuses.push(res.status);
        if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        await res.text();
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(served).toBe(3);
    } finally {
      await listener.close();
    }
  });
});
