import { describe, expect, it } from "vitest";
import { hostOfUrl, parseHostHeader } from "./host-header.js";

describe("a Host header", () => {
  it("is read as the URL parser reads a host: lower case, default port dropped, addresses told from names", () => {
    expect(parseHostHeader("HomeAssistant.local:8808")).toEqual({ host: "homeassistant.local:8808", hostname: "homeassistant.local", isAddress: false });
    expect(parseHostHeader("localhost.:80")).toEqual({ host: "localhost.", hostname: "localhost", isAddress: false });
    expect(parseHostHeader("[::1]:8808")).toEqual({ host: "[::1]:8808", hostname: "[::1]", isAddress: true });
    expect(parseHostHeader("192.168.1.5")).toMatchObject({ hostname: "192.168.1.5", isAddress: true });
  });

  it("is refused when it is anything but a host and a port, so nothing of it reaches a URL or a page", () => {
    for (const bad of [undefined, "", "a b", "evil.example/path", "x@y", 'a"b', "host:port", "a:99999", "a:65536", "[::1", "[zz::1]", "a?b", "a#b", ".", "a\\b", ["a", "b"]]) {
      expect(parseHostHeader(bad as string), String(bad)).toBeUndefined();
    }
  });

  it("is parsed once and handed out read-only, and a flood of names changes no answer", () => {
    const first = parseHostHeader("ha.example:8808");
    expect(Object.isFrozen(first)).toBe(true);
    for (let i = 0; i < 500; i++) expect(parseHostHeader(`name-${i}.example`)).toMatchObject({ hostname: `name-${i}.example` });
    expect(parseHostHeader("ha.example:8808")).toEqual(first);
    expect(parseHostHeader("a:99999")).toBeUndefined();
    expect(parseHostHeader("a:99999")).toBeUndefined();
    expect(parseHostHeader("a".repeat(301))).toBeUndefined();
    expect(parseHostHeader("a".repeat(300))).toMatchObject({ hostname: "a".repeat(300) });
  });
});

describe("hostOfUrl", () => {
  it("gives a URL's host as Host headers are compared, and nothing for what is not a URL", () => {
    expect(hostOfUrl("http://Home.Local.:8123/x")).toBe("home.local");
    expect(hostOfUrl("https://[::1]:8808/mcp")).toBe("[::1]");
    expect(hostOfUrl("")).toBeUndefined();
    expect(hostOfUrl(null)).toBeUndefined();
    expect(hostOfUrl("not a url")).toBeUndefined();
  });
});
