import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { launchChromium, screenshot } from "./browser.js";

let browser: Browser;
let sim: Simulator;
let client: Server;
let clientOrigin: string;

beforeAll(async () => {
  browser = await launchChromium();
  sim = await startSimulator({ house: demoHouse() });
  // The client's callback: it only shows what it was given.
  client = createServer((req, res) => res.writeHead(200, { "Content-Type": "text/plain" }).end(`callback ${req.url}`));
  await new Promise<void>((resolve) => client.listen(0, "127.0.0.1", resolve));
  const address = client.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  clientOrigin = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await browser?.close();
  await sim?.close();
  client?.close();
});

describe("the simulated HA's login page in Chromium", () => {
  it("takes the demo user's password and sends the browser to the client's callback with a code that /auth/token accepts", async () => {
    const page = await browser.newPage();
    const clientId = `${clientOrigin}/`;
    const query = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: `${clientOrigin}/cb`, state: "xyz" });
    await page.goto(`${sim.url}/auth/authorize?${query}`);
    await page.getByLabel("Username").fill("alex");
    await page.getByLabel("Password").fill("linden-house");
    await screenshot(page, "sim-login");
    await Promise.all([page.waitForURL(`${clientOrigin}/cb?**`), page.getByRole("button", { name: "Log in" }).click()]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get("state")).toBe("xyz");
    const res = await fetch(`${sim.url}/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: landed.searchParams.get("code")!, client_id: clientId }),
    });
    expect(res.status).toBe(200);
    await page.close();
  });
});
