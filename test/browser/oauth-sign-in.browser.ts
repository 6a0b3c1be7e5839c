import { AxeBuilder } from "@axe-core/playwright";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_LOGIN, demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { pkcePair } from "../oauth/pkce.js";
import { callTool } from "../support/mcp.js";
import { connectClient, startStack, type Stack } from "../support/stack.js";
import { launchChromium, screenshot } from "./browser.js";

const CLIENT_NAME = "Browser Test Client";

async function expectAccessible(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${state}: ${v.id} ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`)).toEqual([]);
}

/**
 * The MCP client's side: a loopback callback that shows what it was given,
 * and, at `/forged`, another site's page that posts a consent answer to the
 * add-on by itself.
 */
function startClientServer(forged: () => { action: string; request: string }): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.url === "/forged") {
      const f = forged();
      const attr = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><html lang="en"><head><title>Another site</title></head><body><form id="f" method="post" action="${attr(f.action)}"><input type="hidden" name="request" value="${attr(f.request)}"><input type="hidden" name="decision" value="allow"></form><script>document.getElementById("f").submit()</script></body></html>`,
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" }).end(`callback ${req.url}`);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") throw new Error("no port");
      resolve({ server, port: address.port });
    }),
  );
}

describe("sign in with Home Assistant, in Chromium", () => {
  let browser: Browser;
  let sim: Simulator;
  let stack: Stack;
  let dataDir: string;
  let callback: Server;
  let callbackOrigin: string;
  let forgedPagePort: number;
  let forged = { action: "", request: "" };
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    sim = await startSimulator({ house: demoHouse() });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-oauth-browser-"));
    stack = await startStack({ sim, dataDir });
    const started = await startClientServer(() => forged);
    callback = started.server;
    forgedPagePort = started.port;
    callbackOrigin = `http://127.0.0.1:${started.port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await sim?.close();
    callback?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  // A fresh profile per test: no consent cookie or HA login carries over.
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
  });

  /** Registers a client whose redirect is the local callback, and builds its authorize URL with PKCE and a state. */
  async function authorizeRequest() {
    const redirect = `${callbackOrigin}/cb`;
    const registered = await fetch(`${stack.baseUrl}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: CLIENT_NAME, redirect_uris: [redirect] }) });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const { verifier, challenge } = pkcePair();
    const state = `state-${Math.random().toString(36).slice(2)}`;
    const url = new URL(`${stack.baseUrl}/oauth/authorize`);
    const params = { response_type: "code", client_id: clientId, redirect_uri: redirect, state, code_challenge: challenge, code_challenge_method: "S256", resource: stack.mcpUrl, scope: "mcp" };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return { url: url.toString(), clientId, redirect, verifier, state };
  }

  it("shows an accessible consent page in light and dark, then Allow and HA's login bring the client a code that signs it in", async () => {
    const request = await authorizeRequest();
    await page.goto(request.url);
    const loadMs = await page.evaluate(() => Math.round((performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventEnd));
    process.stdout.write(`consent page: loaded ${loadMs} ms after navigation start\n`);
    await expect.poll(() => page.title()).toBe("Sign in to HA Agent");
    const card = await page.locator("main").innerText();
    expect(card).toContain(`Allow ${CLIENT_NAME} to use HA Agent?`);
    expect(card).toContain(new URL(callbackOrigin).host);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      // The page follows the scheme: its background differs between the two.
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe(colorScheme === "light" ? "rgb(250, 250, 250)" : "rgb(17, 17, 17)");
      await screenshot(page, `oauth-consent-${colorScheme}`);
      await expectAccessible(page, `consent (${colorScheme})`);
    }
    await page.emulateMedia({ colorScheme: "light" });

    const allowedAt = Date.now();
    await Promise.all([page.waitForURL(`${sim.url}/auth/authorize?**`), page.getByRole("button", { name: "Allow" }).click()]);
    const toLoginMs = Date.now() - allowedAt;
    await page.getByLabel("Username").fill(DEMO_LOGIN.username);
    await page.getByLabel("Password").fill(DEMO_LOGIN.password);
    await screenshot(page, "oauth-ha-login");
    const loggedInAt = Date.now();
    await Promise.all([page.waitForURL(`${request.redirect}?**`), page.getByRole("button", { name: "Log in" }).click()]);
    // Recorded, not asserted: a shared machine's load would make a time limit flaky.
    process.stdout.write(`sign-in: Allow to HA's login page ${toLoginMs} ms, Log in to the client's callback ${Date.now() - loggedInAt} ms\n`);
    const back = new URL(page.url());
    expect(back.searchParams.get("state")).toBe(request.state);
    expect(back.searchParams.get("iss")).toBe(stack.baseUrl);
    const code = back.searchParams.get("code");
    expect(code).toBeTruthy();

    const token = await fetch(`${stack.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: code!, client_id: request.clientId, redirect_uri: request.redirect, code_verifier: request.verifier, resource: stack.mcpUrl }),
    });
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const client = await connectClient(stack.mcpUrl, accessToken);
    try {
      const result = await callTool(client, "ha_agent_state_query", { entity_ids: ["light.kitchen_ceiling"] });
      expect(result.isError).toBe(false);
      expect(result.text).toContain("light.kitchen_ceiling");
    } finally {
      await client.close();
    }
  });

  it("sends the browser back to the client with access_denied and the same state when the person clicks Deny", async () => {
    const request = await authorizeRequest();
    await page.goto(request.url);
    await Promise.all([page.waitForURL(`${request.redirect}?**`), page.getByRole("button", { name: "Deny" }).click()]);
    const back = new URL(page.url());
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe(request.state);
    expect(back.searchParams.get("code")).toBeNull();
  });

  it("refuses a consent answer another site posts in the person's browser, though that browser holds the consent page's cookie", async () => {
    const request = await authorizeRequest();
    await page.goto(request.url);
    // The browser now holds the consent cookie; another site copies the sealed request and posts Allow itself.
    forged = { action: `${stack.baseUrl}/oauth/authorize`, request: await page.locator('input[name="request"]').inputValue() };
    // `localhost` is another site than `127.0.0.1` (ports do not make sites), so the SameSite=Strict cookie stays behind.
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url() === forged.action && r.request().method() === "POST"),
      page.goto(`http://localhost:${forgedPagePort}/forged`),
    ]);
    // Another origin (another port, another name) is stopped by the Origin check before the consent form is read.
    expect(answer.status()).toBe(403);
    await page.waitForURL(forged.action);
    expect(await page.locator("body").innerText()).toContain("origin_not_allowed");
    await screenshot(page, "oauth-consent-forged");
    // In the same browser, an answer from the consent page itself still goes through: only the other site's post was refused.
    await page.goto(request.url);
    await Promise.all([page.waitForURL(`${request.redirect}?**`), page.getByRole("button", { name: "Deny" }).click()]);
    expect(new URL(page.url()).searchParams.get("error")).toBe("access_denied");
  });
});
