import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../shared/index.js";
import { createHaClient } from "./client.js";
import { HaAuthError, HaRestError } from "./errors.js";

const TOKEN = "rest-test-token-3f9a";
let server: Server;
let apiUrl: string;
const pending = new Set<() => void>();

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end("401: Unauthorized");
      return;
    }
    switch (req.url) {
      case "/api/":
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ message: "API running." }));
        return;
      case "/api/error_log":
        res.writeHead(200, { "content-type": "text/plain" }).end("2026-01-01 ERROR (MainThread) [homeassistant] boom\n");
        return;
      case "/api/slow":
        pending.add(() => res.end("{}"));
        return;
      case "/api/not-json":
        res.writeHead(200).end("<html>");
        return;
      default:
        res.writeHead(404).end("404: Not Found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  for (const release of pending) release();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = (token: string, restTimeoutMs = 5_000) =>
  createHaClient({ wsUrl: "ws://127.0.0.1:1/api/websocket", apiUrl, token, logger: silentLogger, restTimeoutMs });

describe("REST helpers", () => {
  it("restGet sends the bearer token and parses JSON", async () => {
    await expect(client(TOKEN).restGet("/")).resolves.toEqual({ message: "API running." });
  });

  it("errorLog returns the log as text", async () => {
    await expect(client(TOKEN).errorLog()).resolves.toContain("ERROR (MainThread)");
  });

  it("a rejected token gives HaAuthError that names the setting and never the token", async () => {
    const wrong = "wrong-token-77c1";
    const err = await client(wrong).restGet("/").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaAuthError);
    expect((err as Error).message).toContain("HA_TOKEN");
    expect((err as Error).message).not.toContain(wrong);
  });

  it("other statuses give HaRestError with the status", async () => {
    const err = await client(TOKEN).restGet("missing").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaRestError);
    expect((err as HaRestError).status).toBe(404);
    expect((err as Error).message).toContain("/api/missing");
  });

  it("a body that is not JSON is reported, not thrown as a SyntaxError", async () => {
    const err = await client(TOKEN).restGet("not-json").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaRestError);
    expect((err as Error).message).toContain("did not return JSON");
  });

  it("a request that gets no answer times out with HaRestError and no status", async () => {
    const err = await client(TOKEN, 100).restGet("slow").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaRestError);
    expect((err as HaRestError).status).toBeNull();
    expect((err as Error).message).toContain("no answer within 100 ms");
  });

  it("an unreachable server gives HaRestError naming the URL", async () => {
    const unreachable = createHaClient({ wsUrl: "ws://127.0.0.1:1/", apiUrl: "http://127.0.0.1:1/api", token: TOKEN, logger: silentLogger });
    const err = await unreachable.restGet("states").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaRestError);
    expect((err as Error).message).toContain("http://127.0.0.1:1/api/states");
  });
});
