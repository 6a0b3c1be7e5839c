import { describe, expect, it } from "vitest";
import { isPrivateAddress, literalAddress } from "./private-address.js";

describe("private addresses", () => {
  it.each(["10.0.0.5", "127.0.0.1", "172.16.4.1", "192.168.1.10", "169.254.169.254", "100.64.0.1", "0.0.0.0", "255.255.255.255", "::1", "::", "fd12::1", "fe80::1", "::ffff:10.0.0.5", "::ffff:7f00:1", "[::1]"])(
    "counts %s as not public",
    (address) => {
      expect(isPrivateAddress(address)).toBe(true);
    },
  );

  it.each(["93.184.215.14", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "metadata.example"])("counts %s as public (or not an address)", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it("finds a literal address in a URL host, brackets removed", () => {
    expect(literalAddress("[::1]")).toBe("::1");
    expect(literalAddress("10.0.0.5")).toBe("10.0.0.5");
    expect(literalAddress("metadata.example")).toBeUndefined();
  });
});
