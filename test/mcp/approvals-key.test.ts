import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerContext } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApprovalStateCodec, type ApprovalState } from "../../src/mcp/index.js";
import { defaultAdmin, demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { DECLARES_ELICITATION, modernRequest } from "../support/mcp-raw.js";
import { startStack } from "../support/stack.js";

/** A turn that does not exist: a state that verifies gets not_found from the tool, one that does not gets -32602 from the SDK. */
const STATE: ApprovalState = { tool: "await_continuation", continuation_id: "01JD0000000000000000000T01", approval_id: "01JD0000000000000000000A01" };

/** What the SDK hands a state's `bind`: the method, and the caller in `authInfo`. */
const contextOf = (principal: { id: string; name: string }) =>
  ({ mcpReq: { method: "tools/call" }, http: { authInfo: { token: "", clientId: principal.id, scopes: [], extra: { principal: { ...principal, kind: "user", isAdmin: true } } } } }) as unknown as ServerContext;

describe("the key that signs approval states", () => {
  let dataDir: string;
  let sim: Simulator;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-key-"));
    sim = await startSimulator({ house: demoHouse() });
  });
  afterAll(async () => {
    await sim?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const retry = (url: string, token: string, requestState: string) =>
    modernRequest({
      url,
      token,
      method: "tools/call",
      name: "ha_agent_await_continuation",
      params: { name: "ha_agent_await_continuation", arguments: { continuation_id: STATE.continuation_id }, requestState },
      capabilities: DECLARES_ELICITATION,
    });

  it("is made once in the data directory, owner-only, and verifies after a restart what it signed before", async () => {
    const first = await startStack({ dataDir, sim });
    const path = join(dataDir, "secrets", "request-state.key");
    const key = await readFile(path);
    expect(key.length).toBe(32);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    // The simulator's one user, whose token the stack connects with.
    const user = defaultAdmin();
    const signed = await createApprovalStateCodec({ key: new Uint8Array(key) }).mint(STATE, contextOf(user));
    await first.close();

    const second = await startStack({ dataDir, sim });
    try {
      expect(Buffer.compare(await readFile(path), key)).toBe(0);
      // Verified, so the tool runs: the turn is unknown, which is a tool failure, not a refused state.
      const kept = await retry(second.mcpUrl, second.token, signed);
      expect(kept.error).toBeUndefined();
      expect(kept.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("(not_found)") }] });
      const forged = await createApprovalStateCodec({ key: new Uint8Array(32).fill(1) }).mint(STATE, contextOf(user));
      expect((await retry(second.mcpUrl, second.token, forged)).error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
    } finally {
      await second.close();
    }
  });
});
