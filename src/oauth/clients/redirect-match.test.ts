import { describe, expect, it } from "vitest";
import { redirectAllowed } from "./redirect-match.js";

// As Claude Code's metadata document declares them: loopback without a port.
const claudeCode = { redirectUris: ["http://localhost/callback", "http://127.0.0.1/callback"] };
const web = { redirectUris: ["https://app.example/oauth/callback?tenant=1", "http://[::1]:8080/cb"] };

describe("redirect matching", () => {
  it.each([
    ["a loopback redirect on the port the app picked", claudeCode, "http://localhost:3118/callback"],
    ["the declared loopback redirect itself", claudeCode, "http://localhost/callback"],
    ["127.0.0.1 on any port", claudeCode, "http://127.0.0.1:49152/callback"],
    ["[::1] on another port than declared", web, "http://[::1]:9999/cb"],
    ["an exact https match with its query", web, "https://app.example/oauth/callback?tenant=1"],
  ])("allows %s", (_name, client, uri) => {
    expect(redirectAllowed(client, uri)).toBe(true);
  });

  it.each([
    ["another path on a loopback host", claudeCode, "http://localhost:3118/other"],
    ["a public host with the declared path", claudeCode, "http://evil.example/callback"],
    ["another loopback host than declared", claudeCode, "http://[::1]:3118/callback"],
    ["https where http was declared", claudeCode, "https://localhost:3118/callback"],
    ["a loopback redirect with a query the declared one lacks", claudeCode, "http://localhost:3118/callback?next=x"],
    ["a loopback redirect with a fragment", claudeCode, "http://localhost:3118/callback#x"],
    ["a user name in front of a loopback host", claudeCode, "http://evil.example@localhost:3118/callback"],
    ["a loopback-looking user name in front of another host", claudeCode, "http://localhost:3118@evil.example/callback"],
    ["an https redirect on another port", web, "https://app.example:444/oauth/callback?tenant=1"],
    ["an https redirect with another query", web, "https://app.example/oauth/callback?tenant=2"],
    ["an https redirect with a fragment", web, "https://app.example/oauth/callback?tenant=1#x"],
    ["a path prefix of the declared one", web, "https://app.example/oauth/"],
    ["text that is not a URL", web, "not a url"],
  ])("refuses %s", (_name, client, uri) => {
    expect(redirectAllowed(client, uri)).toBe(false);
  });
});
