import { describe, expect, it } from "vitest";
import { isPrivateAddress, literalAddress } from "./private-address.js";

describe("private addresses", () => {
  it.each(["10.0.0.5", "127.0.0.1", "172.16.4.1", "192.168.1.10", "169.254.169.254", "100.64.0.1", "0.0.0.0", "255.255.255.255", "::1", "::", "fd12::1", "fe80::1", "::ffff:10.0.0.5", "::ffff:7f00:1", "[::1]"])(
    "counts %s as not public",
    (address) => {
      expect(isPrivateAddress(address)).toBe(true);
    },
  );

  it.each([
    ["IPv4-compatible", ["::7f00:1", "::127.0.0.1", "::a00:5", "::169.254.169.254"]],
    ["IPv4-mapped, in every spelling", ["::ffff:7f00:1", "::FFFF:127.0.0.1", "0:0:0:0:0:ffff:7f00:1", "0000:0000:0000:0000:0000:ffff:c0a8:0101", "[::ffff:192.168.1.1]"]],
    ["IPv4-translated", ["::ffff:0:7f00:1", "::ffff:0:10.0.0.1"]],
    ["NAT64", ["64:ff9b::7f00:1", "64:ff9b::10.1.2.3", "64:ff9b::a9fe:a9fe", "64:ff9b:1::8.8.8.8"]],
    ["6to4", ["2002:7f00:1::", "2002:c0a8:101::1", "2002:a00:1:ffff::1"]],
    ["Teredo", ["2001:0:7f00:1::1", "2001:0:4136:e378:8000:63bf:f5ff:fffe"]],
    ["IPv6 with a zone", ["fe80::1%eth0"]],
  ])("counts %s forms of private addresses as not public", (_form, addresses) => {
    for (const address of addresses) expect(isPrivateAddress(address), address).toBe(true);
  });

  it.each(["93.184.215.14", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "metadata.example"])("counts %s as public (or not an address)", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it("finds a literal address in a URL host, brackets removed", () => {
    expect(literalAddress("[::1]")).toBe("::1");
    expect(literalAddress("10.0.0.5")).toBe("10.0.0.5");
    expect(literalAddress("metadata.example")).toBeUndefined();
  });
});
