import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeHa, type FakeHa } from "../../test/support/ha/fake-ha.js";

// Runs the compiled client (npm test builds dist/ before vitest) in a child
// process, because "nothing keeps the process alive after close()" can only
// be seen from a process that is allowed to exit on its own.
const distHa = fileURLToPath(new URL("../../dist/ha/index.js", import.meta.url));
const distShared = fileURLToPath(new URL("../../dist/shared/index.js", import.meta.url));

function childScript(wsUrl: string, token: string, scenario: "connected" | "reconnecting"): string {
  return `
    import { createHaClient } from ${JSON.stringify(distHa)};
    import { silentLogger } from ${JSON.stringify(distShared)};
    const client = createHaClient({
      wsUrl: ${JSON.stringify(wsUrl)}, apiUrl: "http://127.0.0.1:1/api", token: ${JSON.stringify(token)},
      logger: silentLogger, pingIntervalMs: 20, pongTimeoutMs: 5000, backoff: { initialMs: 60000, maxMs: 60000 },
    });
    await client.connect();
    await client.subscribeEntities(() => {});
    await client.subscribeEvents("state_changed", () => {});
    process.stdout.write("subscribed;");
    if (${JSON.stringify(scenario)} === "reconnecting") {
      await new Promise((resolve) => client.onStatus((s) => s === "reconnecting" && resolve()));
      // Let the library hand over to our backoff before closing.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await client.close();
    process.stdout.write("closed:" + client.status);
  `;
}

function runChild(script: string, onOutput?: (out: string) => void): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      onOutput?.(out);
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    // A guard only: a healthy run exits in well under a second.
    const guard = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("exit", (code) => {
      clearTimeout(guard);
      resolve({ code, out, err });
    });
  });
}

let ha: FakeHa | undefined;
afterEach(async () => {
  await ha?.close();
  ha = undefined;
});

describe("after close()", () => {
  it("the process exits on its own: no timer or socket is left running", async () => {
    ha = await startFakeHa();
    const result = await runChild(childScript(ha.wsUrl, ha.token, "connected"));
    expect(result.err).toBe("");
    expect(result.out).toBe("subscribed;closed:closed");
    expect(result.code).toBe(0);
  });

  it("the process exits on its own when closed during reconnect backoff", async () => {
    ha = await startFakeHa();
    const fake = ha;
    let dropped = false;
    // Once it is connected and subscribed, drop it so it sits in a 60 s backoff.
    const result = await runChild(childScript(ha.wsUrl, ha.token, "reconnecting"), (out) => {
      if (!dropped && out.includes("subscribed;")) {
        dropped = true;
        fake.dropAll();
      }
    });
    expect(result.err).toBe("");
    expect(result.out).toBe("subscribed;closed:closed");
    expect(result.code).toBe(0);
  });
});
