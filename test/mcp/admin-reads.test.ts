import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haStyleToken } from "@ha-agent/ha-simulator";
import { callTool } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

/** A Home Assistant user who is not an administrator. */
const MEMBER = { id: "5f0c1d2e3a4b4c6d8e9f0a1b2c3d4e5f", name: "Sam", isAdmin: false, tokens: [haStyleToken("sam")] };
const FLAPPING = "switch.garden_fountain_pump";
/** A line of the demo house's system log about that entity. */
const LOG_LINE = "APS ACK timeout";

/**
 * HA Agent reads Home Assistant with an administrator's token; what Home
 * Assistant shows only to administrators (its system log and error log),
 * it does not show anyone else either, through any tool or persona.
 */
describe("what Home Assistant shows to administrators only, over MCP", () => {
  let stack: Stack;
  let member: Client;
  beforeAll(async () => {
    stack = await startStack();
    stack.sim.users.add(MEMBER);
    member = await stack.connect(MEMBER.tokens[0]!);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("analyze_errors answers a non-admin admin_only, and an admin with the log", async () => {
    const refused = await callTool(member, "ha_agent_analyze_errors", {});
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/administrators only.*\(admin_only\)$/s);
    expect(refused.text).not.toContain(LOG_LINE);

    const admin = await callTool(stack.client, "ha_agent_analyze_errors", {});
    expect(admin.isError).toBe(false);
    expect(JSON.stringify(admin.value.records)).toContain(LOG_LINE);
  });

  it("diagnose_entity leaves the log lines out for a non-admin and says so; an admin gets them", async () => {
    const forMember = await callTool(member, "ha_agent_diagnose_entity", { entity_id: FLAPPING });
    expect(forMember.isError).toBe(false);
    expect(forMember.value.log_entries).toEqual([]);
    expect(forMember.value.notes).toEqual([expect.stringMatching(/^Log messages are left out: Home Assistant shows its system log and error log to administrators only/)]);
    expect(forMember.text).not.toContain(LOG_LINE);
    // The rest of the answer is the same: history still shows the flapping.
    expect((forMember.value.findings as string[]).some((f) => f.startsWith("flapping: "))).toBe(true);

    const forAdmin = await callTool(stack.client, "ha_agent_diagnose_entity", { entity_id: FLAPPING });
    expect(JSON.stringify(forAdmin.value.log_entries)).toContain(LOG_LINE);
    expect(forAdmin.value.notes).toEqual([]);
  });

  it("the troubleshooter's priming holds no log lines for a non-admin, and says why; an admin's holds them", async () => {
    const priming = async (client: Client) => {
      const got = await client.getPrompt({ name: "troubleshooter", arguments: { entity: FLAPPING, max_tokens: "4000" } });
      return (got.messages.at(-1)!.content as { text: string }).text;
    };
    const forMember = await priming(member);
    expect(forMember).not.toContain(LOG_LINE);
    expect(forMember).toContain("administrators only");
    const forAdmin = await priming(stack.client);
    expect(forAdmin).toContain(LOG_LINE);
    expect(forAdmin).not.toContain("administrators only");
  });
});
