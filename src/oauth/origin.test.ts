import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { requestOrigin } from "./origin.js";

const req = (host: string | undefined) => ({ headers: host === undefined ? {} : { host } }) as IncomingMessage;

describe("the origin the add-on is reached at", () => {
  it("is public_url when set, else the Host header's host", () => {
    expect(requestOrigin(req("evil.example"), "https://agent.example.com/")).toBe("https://agent.example.com");
    expect(requestOrigin(req("HomeAssistant.local:8808"), undefined)).toBe("http://homeassistant.local:8808");
    expect(requestOrigin(req("[::1]:8808"), undefined)).toBe("http://[::1]:8808");
  });

  it("is unknown for a Host header that is not a host, so nothing of it is echoed into URLs", () => {
    for (const host of [undefined, "", "a b", "evil.example/path", "x@y", 'a"b', "host:port", "a:99999", "[::1", "a:65536"]) expect(requestOrigin(req(host), undefined)).toBeUndefined();
  });
});
