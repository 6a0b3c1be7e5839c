import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

const root = join(import.meta.dirname, "..", "..");
/** Files are picked up "within 2 s" of being written. */
const PICKED_UP_MS = 2_000;

describe("user personas from PERSONAS_DIR", () => {
  let stack: Stack;
  let dir: string;
  const names = async () => (await stack.client.listPrompts()).prompts.map((p) => p.name);
  const health = async () => (await (await fetch(`${stack.baseUrl}/healthz`)).json()) as { status: string; reasons: string[]; components: Record<string, { details?: { problems?: string[] } }> };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "ha-agent-personas-"));
    // A shipped example is there from the start.
    await writeFile(join(dir, "night_check.yaml"), await readFile(join(root, "docs/personas/night_check.yaml"), "utf8"));
    stack = await startStack({ env: { PERSONAS_DIR: dir } });
  });
  afterAll(async () => {
    await stack?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("serves a file that was there at start, with its arguments, placeholders filled", async () => {
    const { prompts } = await stack.client.listPrompts();
    expect(prompts.find((p) => p.name === "night_check")).toMatchObject({ title: "Night check", arguments: [{ name: "floor", required: false }, { name: "max_tokens" }] });
    const got = await stack.client.getPrompt({ name: "night_check", arguments: {} });
    expect((got.messages[0]!.content as { text: string }).text).toMatch(/^You are HA Agent doing a night check of a Home Assistant home\./);
    expect((got.messages[1]!.content as { text: string }).text).toMatch(/## Floors and areas/);
  });

  it("a file dropped in while the program runs appears in prompts/list within 2 s, and goes when removed", async () => {
    await writeFile(join(dir, "zigbee_doctor.yaml"), await readFile(join(root, "docs/personas/zigbee_doctor.yaml"), "utf8"));
    const started = Date.now();
    await waitUntil(names, (n) => n.includes("zigbee_doctor"), PICKED_UP_MS);
    expect(Date.now() - started).toBeLessThanOrEqual(PICKED_UP_MS);
    const got = await stack.client.getPrompt({ name: "zigbee_doctor", arguments: { entity: "light.kitchen_ceiling" } });
    expect((got.messages.at(-1)!.content as { text: string }).text).toContain("light.kitchen_ceiling now");
    await rm(join(dir, "zigbee_doctor.yaml"));
    await waitUntil(names, (n) => !n.includes("zigbee_doctor"), PICKED_UP_MS);
  });

  it("a file with a bad field is reported on /healthz with its file, line and field; the others still work", async () => {
    await writeFile(join(dir, "broken.yaml"), "title: Broken\ndescription: d\narguments:\n  - name: lamp\n    type: bulb\nsystem_prompt: x\n");
    const report = await waitUntil(health, (h) => h.status === "degraded", PICKED_UP_MS);
    expect(report.components.personas?.details?.problems).toEqual([expect.stringMatching(/broken\.yaml line 5, arguments\.0\.type: /)]);
    expect(report.reasons.join(" ")).toMatch(/broken\.yaml/);
    expect(await names()).toEqual(expect.arrayContaining(["night_check", "troubleshooter"]));
    await rm(join(dir, "broken.yaml"));
    await waitUntil(health, (h) => h.status === "ok", PICKED_UP_MS);
  });

  it("a user persona takes a built-in's name only when it says replaces", async () => {
    const file = join(dir, "mine.yaml");
    await writeFile(file, "name: troubleshooter\ntitle: My troubleshooter\ndescription: d\nsystem_prompt: mine\n");
    const report = await waitUntil(health, (h) => h.status === "degraded", PICKED_UP_MS);
    expect(report.components.personas?.details?.problems?.[0]).toMatch(/mine\.yaml, name: .*replaces: troubleshooter/);
    expect((await stack.client.listPrompts()).prompts.find((p) => p.name === "troubleshooter")?.title).toBe("Troubleshooter");
    await writeFile(file, "name: troubleshooter\nreplaces: troubleshooter\ntitle: My troubleshooter\ndescription: d\nsystem_prompt: mine\n");
    await waitUntil(async () => (await stack.client.listPrompts()).prompts.find((p) => p.name === "troubleshooter")?.title, (t) => t === "My troubleshooter", PICKED_UP_MS);
    await rm(file);
    await waitUntil(async () => (await stack.client.listPrompts()).prompts.find((p) => p.name === "troubleshooter")?.title, (t) => t === "Troubleshooter", PICKED_UP_MS);
  });
});
