import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "./index.js";
import { REDACTED, redactSecrets, redactText } from "./redact.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

const tempDir = useTempDirs();

describe("secret redaction", () => {
  it("replaces credentials by key name but keeps token counts", () => {
    const out = redactSecrets({
      access_token: "abc.def.ghi",
      headers: { Authorization: "Bearer xyz" },
      apiKey: "k",
      password: "hunter2",
      usage: { promptTokenCount: 12, maxTokensPerTurn: 100 },
    });
    expect(out).toEqual({
      access_token: REDACTED,
      headers: { Authorization: REDACTED },
      apiKey: REDACTED,
      password: REDACTED,
      usage: { promptTokenCount: 12, maxTokensPerTurn: 100 },
    });
  });

  it("finds secrets inside free text", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJhYmMifQ.c2lnbmF0dXJlMTIz";
    expect(redactText(`curl -H "Authorization: Bearer ${jwt}"`)).not.toContain(jwt);
    expect(redactText("key AIzaSyA1234567890abcdefghijklmnopqrstu")).toBe(`key ${REDACTED}`);
    expect(redactText("api_key=s3cr3tvalue&x=1")).toBe(`api_key=${REDACTED}&x=1`);
    expect(redactText("the light is on")).toBe("the light is on");
  });

  it("never writes a token into a step log or an artifact", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const s = await store.sessions.create({ owner: "u" });
    const { continuation } = await store.continuations.create("u", s.id, { message: "my token: supersecret123" });
    await store.steps.append("u", continuation.id, { type: "tool_call", detail: { headers: { authorization: "Bearer abcdefghijk" } } }, { durable: true });
    const ref = await store.artifacts.put("u", continuation.id, { content: "HA_TOKEN=eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJhYmMifQ.c2lnbmF0dXJlMTIz", mediaType: "text/plain" });
    await store.close();
    const log = await readFile(join(dataDir, "sessions", s.id, "logs", `${continuation.id}.log`), "utf8");
    const turn = await readFile(join(dataDir, "sessions", s.id, "turns", `${continuation.id}.json`), "utf8");
    const artifact = await readFile(join(dataDir, "artifacts", ref.id), "utf8");
    expect(log).not.toContain("abcdefghijk");
    expect(turn).not.toContain("supersecret123");
    expect(artifact).not.toContain("eyJhbGciOiJIUzI1NiJ9");
  });

  it("redacts a message before cutting its preview, so no piece of a token is kept", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const s = await store.sessions.create({ owner: "u" });
    // The 80-character cut falls inside the token, leaving a piece too short to look like one.
    const { continuation } = await store.continuations.create("u", s.id, { message: `${"x".repeat(65)} Bearer abcdefghijklmnop` });
    expect(store.continuations.list("u", s.id)[0]?.preview).toBe(`${"x".repeat(65)} Bearer ${REDACTED}`.slice(0, 80));
    await store.continuations.update("u", continuation.id, { status: "completed", response: { finalMessage: "ok" } });
    await store.close();
    expect(await readFile(join(dataDir, "sessions", s.id, "session.json"), "utf8")).not.toContain("abcdefg");
  });
});
