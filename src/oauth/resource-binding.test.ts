import { describe, expect, it } from "vitest";
import { createResourceBinding } from "./resource-binding.js";
import { createSignInOrigin } from "./sign-in-origin.js";

const INTERNAL = "http://local-ha-agent:8808";
const BROWSER = "http://192.168.1.50:8808";
const signInOrigin = createSignInOrigin({ internalNames: async () => ["local-ha-agent", "local-ha-agent.local.hass.io"], browserOrigin: async () => BROWSER });
const binding = createResourceBinding(signInOrigin);

describe("where a sign-in's pages are, and which MCP URL its tokens are for", () => {
  it("sends browsers that came by an internal name to the host's address, and leaves every other origin where it is", async () => {
    expect(await signInOrigin(INTERNAL)).toBe(BROWSER);
    expect(await signInOrigin("http://LOCAL-HA-AGENT.local.hass.io:8808")).toBe(BROWSER);
    expect(await signInOrigin("http://homeassistant.local:8808")).toBe("http://homeassistant.local:8808");
    expect(await signInOrigin(BROWSER)).toBe(BROWSER);
    // Without what the Supervisor says (standalone, demo), nothing moves.
    expect(await createSignInOrigin(undefined)(INTERNAL)).toBe(INTERNAL);
    // Unknown browser address: the pages stay where the client asked, as before.
    expect(await createSignInOrigin({ internalNames: async () => ["local-ha-agent"], browserOrigin: async () => undefined })(INTERNAL)).toBe(INTERNAL);
  });

  it("accepts at the sign-in page a resource of this page's origin or of an internal name that signs in here, and nothing else", async () => {
    expect(await binding.atAuthorize(null, BROWSER)).toBe(`${BROWSER}/mcp`);
    expect(await binding.atAuthorize(`${INTERNAL}/mcp/assist`, BROWSER)).toBe(`${INTERNAL}/mcp/assist`);
    expect(await binding.atAuthorize(`${BROWSER}/mcp`, BROWSER)).toBe(`${BROWSER}/mcp`);
    expect(await binding.atAuthorize(`${BROWSER}/mcp/`, BROWSER)).toBe(`${BROWSER}/mcp`);
    for (const other of ["http://evil.example:8808/mcp", `${INTERNAL}/other`, `${INTERNAL}/mcp?x=1`, "not a url", "ftp://local-ha-agent:8808/mcp"]) {
      expect(await binding.atAuthorize(other, BROWSER), other).toBeUndefined();
    }
    // The internal name signs in at the browser's address, not at any other page.
    expect(await binding.atAuthorize(`${INTERNAL}/mcp`, "http://homeassistant.local:8808")).toBeUndefined();
  });

  it("binds a code made on the sign-in page to the internal name it is redeemed at, and refuses it anywhere else", async () => {
    expect(await binding.atToken(`${BROWSER}/mcp`, INTERNAL)).toBe(`${INTERNAL}/mcp`);
    expect(await binding.atToken(`${INTERNAL}/mcp/assist`, INTERNAL)).toBe(`${INTERNAL}/mcp/assist`);
    expect(await binding.atToken(`${BROWSER}/mcp`, BROWSER)).toBe(`${BROWSER}/mcp`);
    expect(await binding.atToken(`${BROWSER}/mcp`, "http://homeassistant.local:8808")).toBeUndefined();
    expect(await binding.atToken("http://evil.example/mcp", INTERNAL)).toBeUndefined();
    expect(binding.isOwn(`${INTERNAL}/mcp/assist`, INTERNAL)).toBe(true);
    expect(binding.isOwn(`${BROWSER}/mcp`, INTERNAL)).toBe(false);
  });
});
