import { describe, expect, it } from "vitest";
import { createHaLoginUrl } from "./ha-login-url.js";

describe("where the browser logs in to Home Assistant", () => {
  it("is the configured address when there is one, without asking HA", async () => {
    let asked = false;
    const url = createHaLoginUrl({ configured: "https://ha.example.com/", fromHa: async () => ((asked = true), { external_url: "https://other" }) });
    expect(await url("http://192.168.1.5:8808")).toBe("https://ha.example.com");
    expect(asked).toBe(false);
  });

  it("is HA's external URL, then its internal one", async () => {
    expect(await createHaLoginUrl({ configured: undefined, fromHa: async () => ({ external_url: "https://ext.example", internal_url: "http://int:8123" }) })("http://a:8808")).toBe("https://ext.example");
    expect(await createHaLoginUrl({ configured: undefined, fromHa: async () => ({ external_url: null, internal_url: "http://int:8123/" }) })("http://a:8808")).toBe("http://int:8123");
  });

  it("falls back to the host the browser used for the add-on, on HA's port, when HA knows no address or cannot be asked", async () => {
    expect(await createHaLoginUrl({ configured: undefined, fromHa: async () => ({ external_url: null, internal_url: null }) })("http://homeassistant.local:8808")).toBe("http://homeassistant.local:8123");
    expect(await createHaLoginUrl({ configured: undefined, fromHa: async () => Promise.reject(new Error("down")) })("https://agent.example.com")).toBe("http://agent.example.com:8123");
  });

  it("uses the port and scheme the Supervisor says Core serves on the host, when HA knows no address", async () => {
    const url = createHaLoginUrl({ configured: undefined, fromHa: async () => ({ external_url: null, internal_url: null }), corePort: async () => ({ port: 8443, ssl: true }) });
    expect(await url("http://192.168.1.50:8808")).toBe("https://192.168.1.50:8443");
    const unknown = createHaLoginUrl({ configured: undefined, fromHa: async () => ({}), corePort: async () => Promise.reject(new Error("403")) });
    expect(await unknown("http://192.168.1.50:8808")).toBe("http://192.168.1.50:8123");
  });
});
