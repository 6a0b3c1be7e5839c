import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HA_READ_RULES, mayRead, readRule, type HaRequest } from "./admin-reads.js";
import { callerView } from "./caller-view.js";
import type { HaClient } from "./types.js";

const admin = { isAdmin: true };
const member = { isAdmin: false };
const ws = (type: string): HaRequest => ({ websocket: type });
const rest = (method: "GET" | "POST" | "DELETE", path: string): HaRequest => ({ rest: { method, path } });

describe("the list of Home Assistant's admin-only reads", () => {
  it.each([
    ["the system log", ws("system_log/list")],
    ["the error log", rest("GET", "error_log")],
    ["REST template rendering", rest("POST", "template")],
    ["an automation's config", rest("GET", "config/automation/config/1700000000000")],
    ["saving an automation", rest("POST", "config/automation/config/hall_light")],
    ["deleting a script", rest("DELETE", "config/script/config/morning")],
    ["trace/list", ws("trace/list")],
    ["trace/get", ws("trace/get")],
    ["trace/contexts", ws("trace/contexts")],
  ])("refuses %s to a non-admin, and allows it to an admin", (_name, request) => {
    expect(readRule(request)?.adminOnly).toBe(true);
    expect(mayRead(member, request)).toBe(false);
    expect(mayRead(admin, request)).toBe(true);
  });

  it.each([["render_template"], ["history/history_during_period"], ["logbook/get_events"], ["recorder/statistics_during_period"], ["get_states"], ["call_service"]])(
    "opens %s to every user, as Home Assistant's WebSocket API does",
    (type) => expect(mayRead(member, ws(type))).toBe(true),
  );

  it("treats a read it does not know as admin-only, until the list says otherwise", () => {
    expect(readRule(ws("energy/save_prefs"))).toBeUndefined();
    expect(mayRead(member, ws("energy/save_prefs"))).toBe(false);
    expect(mayRead(member, rest("GET", "states"))).toBe(false);
    expect(mayRead(admin, ws("energy/save_prefs"))).toBe(true);
  });

  it.each([["config/../error_log"], ["/error_log"], ["%65rror_log"], ["error_log?lines=10"], ["config//automation/config/x"], ["config/automation/config/x/"], ["%zz"]])(
    "refuses %s to a non-admin: a path HA routes to an admin-only view is matched as HA routes it",
    (path) => expect(mayRead(member, rest("GET", path))).toBe(false),
  );

  it("names Home Assistant's source for every rule", () => {
    for (const rule of HA_READ_RULES) expect(rule.source, rule.what).toMatch(/^homeassistant\/components\/\S+\.py: /);
  });
});

describe("Home Assistant as one person may read it", () => {
  /** A client that records what reaches Home Assistant. */
  function recordingClient(): { client: HaClient; sent: string[] } {
    const sent: string[] = [];
    const answer = (what: string) => async () => {
      sent.push(what);
      return [] as never;
    };
    const client = {
      status: "connected",
      lastSeenAt: 1,
      systemLog: answer("system_log/list"),
      errorLog: answer("error_log"),
      history: answer("history"),
      sendCommand: async (m: { type: string }) => (sent.push(m.type), [] as never),
      restGet: async (path: string) => (sent.push(`GET ${path}`), [] as never),
    } as unknown as HaClient;
    return { client, sent };
  }

  it("refuses admin-only reads to a non-admin with admin_only before anything reaches Home Assistant, whichever method asks", async () => {
    const { client, sent } = recordingClient();
    const ha = callerView(client, member);
    await expect(ha.systemLog()).rejects.toMatchObject({ code: "admin_only", message: expect.stringContaining("its system log to administrators only") });
    await expect(ha.errorLog()).rejects.toMatchObject({ code: "admin_only" });
    await expect(ha.sendCommand({ type: "system_log/list" })).rejects.toMatchObject({ code: "admin_only" });
    await expect(ha.sendCommand({ type: "trace/get", domain: "automation", item_id: "x", run_id: "y" })).rejects.toMatchObject({ code: "admin_only" });
    await expect(ha.restGet("config/automation/config/hall")).rejects.toMatchObject({ code: "admin_only", message: expect.stringContaining("automation configurations") });
    expect(sent).toEqual([]);
    expect(ha.allows({ websocket: "system_log/list" })).toBe(false);
    await ha.history({ startTime: new Date(0), entityIds: ["light.hall"] });
    expect(sent).toEqual(["history"]);
  });

  it("lets an administrator read everything", async () => {
    const { client, sent } = recordingClient();
    const ha = callerView(client, admin);
    await ha.systemLog();
    await ha.errorLog();
    await ha.sendCommand({ type: "trace/list", domain: "automation" });
    await ha.restGet("config/automation/config/hall");
    expect(sent).toEqual(["system_log/list", "error_log", "trace/list", "GET config/automation/config/hall"]);
  });
});

describe("tools and personas", () => {
  /** Every source file under `dir`, tests left out. */
  async function sources(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    return entries.filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")).map((e) => join(e.parentPath, e.name));
  }

  it("never hold the program's own Home Assistant client, only the view for the person they answer", async () => {
    const root = join(import.meta.dirname, "..");
    const holders: string[] = [];
    for (const file of [...(await sources(join(root, "tools"))), ...(await sources(join(root, "personas")))]) {
      if (/\bHaClient\b/.test(await readFile(file, "utf8"))) holders.push(file.slice(root.length + 1));
    }
    // They take HaAccess and read through forCaller(principal): a new tool cannot skip the list of admin-only reads by accident.
    expect(holders).toEqual([]);
  });
});
