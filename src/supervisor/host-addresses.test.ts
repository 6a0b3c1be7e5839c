import { describe, expect, it } from "vitest";
import { manualClock, silentLogger } from "../shared/index.js";
import type { SupervisorClient } from "./client.js";
import { createHostAddresses } from "./host-addresses.js";

type Answers = { network?: Record<string, number | null> | null; ipv4?: string[]; networkFails?: boolean; selfFails?: boolean };

function supervisorWith(a: Answers): SupervisorClient {
  return {
    selfInfo: async () => {
      if (a.selfFails) throw new Error("the Supervisor could not be reached");
      return { slug: "local_ha_agent", hostname: "local-ha-agent", dns: ["local-ha-agent.local.hass.io"], network: a.network === undefined ? { "8808/tcp": 8808 } : a.network };
    },
    networkInfo: async () => {
      if (a.networkFails) throw new Error("403: Forbidden");
      return { interfaces: [{ primary: false, ipv4: { address: ["10.0.0.9/24"] } }, { primary: true, ipv4: { address: a.ipv4 ?? ["192.168.1.50/24"] } }] };
    },
    coreInfo: async () => ({ port: 8123, ssl: false }),
    announce: async () => "uuid",
    withdraw: async () => "withdrawn",
  };
}

const addresses = (a: Answers, internalUrl: string | null = null, clock = manualClock()) =>
  createHostAddresses({ supervisor: supervisorWith(a), haUrls: async () => ({ internal_url: internalUrl }), mcpPort: () => 8808, clock, logger: silentLogger });

describe("the addresses a person's browser reaches the add-on at", () => {
  it("is the host of HA's internal URL when set, else the primary interface's IPv4, else homeassistant.local, on the published port", async () => {
    expect(await addresses({}, "http://HomeAssistant.lan:8123").browserOrigin()).toBe("http://homeassistant.lan:8808");
    expect(await addresses({}).browserOrigin()).toBe("http://192.168.1.50:8808");
    expect(await addresses({ ipv4: [] }).browserOrigin()).toBe("http://homeassistant.local:8808");
    expect(await addresses({ networkFails: true }).browserOrigin()).toBe("http://homeassistant.local:8808");
    expect(await addresses({ network: { "8808/tcp": 18808 } }).browserOrigin()).toBe("http://192.168.1.50:18808");
  });

  it("knows none when the person did not publish the MCP port", async () => {
    expect(await addresses({ network: { "8808/tcp": null } }).browserOrigin()).toBeUndefined();
    expect(await addresses({ network: null }).browserOrigin()).toBeUndefined();
  });

  it("names the add-on's internal host names, and keeps the last answer while the Supervisor cannot be asked", async () => {
    const clock = manualClock();
    const answers: Answers = {};
    const host = addresses(answers, null, clock);
    expect(await host.internalNames()).toEqual(["local-ha-agent", "local-ha-agent.local.hass.io"]);
    answers.selfFails = true;
    clock.advance(61_000);
    expect(await host.browserOrigin()).toBe("http://192.168.1.50:8808");
    expect(await addresses({ selfFails: true }).internalNames()).toEqual([]);
  });
});
