import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { loadConfig } from "./load.js";
import { ConfigError } from "./errors.js";
import { SERVICE_PATTERN, matchesService, parseServicePattern, servicePatternSchema } from "./service-pattern.js";

const noFile = async () => undefined;

describe("service patterns", () => {
  it("parse domain.service with * for either part, and nothing else", () => {
    expect(parseServicePattern("light.*")).toEqual({ domain: "light", service: "*" });
    expect(parseServicePattern("*.turn_off")).toEqual({ domain: "*", service: "turn_off" });
    for (const bad of ["light", "light.", ".turn_on", "Light.turn_on", "light.turn_*", "light.turn on", "light.turn_on.x", ""]) expect(parseServicePattern(bad)).toBeUndefined();
  });

  it("match a call by domain and service, and a malformed pattern matches nothing", () => {
    expect(matchesService("light.*", { domain: "light", service: "turn_on" })).toBe(true);
    expect(matchesService("*.turn_off", { domain: "switch", service: "turn_off" })).toBe(true);
    expect(matchesService("*.turn_off", { domain: "lock", service: "unlock" })).toBe(false);
    expect(matchesService("light", { domain: "light", service: "turn_on" })).toBe(false);
  });

  it("refuse a malformed entry by quoting it and stating the grammar", () => {
    const parsed = z.array(servicePatternSchema()).safeParse(["light.*", "lights"]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: [1], message: expect.stringMatching(/"lights" is not a service pattern: expected domain\.service.*\*/) });
  });

  it("are what ACTUATION_ALLOWLIST is read with", async () => {
    const env = { HA_URL: "http://ha:8123", HA_TOKEN: "t" };
    const config = await loadConfig({ env: { ...env, ACTUATION_ALLOWLIST: "light.*, switch.turn_off" }, readFile: noFile });
    expect(config.options.actuation_allowlist).toEqual(["light.*", "switch.turn_off"]);
    const error = (await loadConfig({ env: { ...env, ACTUATION_ALLOWLIST: "light.*,lock" }, readFile: noFile }).catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain("ACTUATION_ALLOWLIST");
    expect(error.message).toContain('"lock" is not a service pattern');
  });

  it("are what the Supervisor checks actuation_allowlist with in config.yaml", async () => {
    const config = parse(await readFile(join(import.meta.dirname, "..", "..", "config.yaml"), "utf8")) as { schema: { actuation_allowlist: string[] } };
    expect(config.schema.actuation_allowlist).toEqual([`match(${SERVICE_PATTERN.source})`]);
  });
});
