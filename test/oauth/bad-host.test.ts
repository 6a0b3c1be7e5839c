import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/shared/index.js";
import { rawRequest } from "../support/raw-http.js";
import { startStack, type Stack } from "../support/stack.js";

describe("a malformed Host header", () => {
  let stack: Stack;
  const lines: string[] = [];

  beforeAll(async () => {
    const logger = createLogger({ level: "debug", format: "json", destination: { write: (line: string) => void lines.push(line) } });
    stack = await startStack({ logger });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("gets 400 on every route, sign-in pages and metadata included, never a 500, an ERROR line or the host echoed back", async () => {
    const port = Number(new URL(stack.baseUrl).port);
    const paths = ["/oauth/authorize?client_id=x&redirect_uri=http://127.0.0.1/cb", "/oauth/callback?state=x&code=y", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server", "/mcp", "/healthz"];
    for (const host of [`127.0.0.1:99999`, `localhost:70000`, `[::1`, `evil.example/x`]) {
      for (const path of paths) {
        const answer = await rawRequest({ port, path, host });
        expect(answer.status, `${host} ${path}`).toBe(400);
        expect(answer.body).not.toContain(host);
        expect(answer.headers["www-authenticate"] ?? "").not.toContain(host);
      }
    }
    expect(lines.filter((line) => /"level":"(error|fatal)"/.test(line))).toEqual([]);
  });
});
