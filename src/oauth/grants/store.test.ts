import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { OAuthError } from "../errors.js";
import { HA_SECRET, signIn, useGrantStores } from "../../../test/support/oauth/grants.js";

const freshStore = useGrantStores();

const HOUR = 3600_000;
const DAY = 24 * HOUR;

async function refusal(promise: Promise<unknown>): Promise<OAuthError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OAuthError);
  return err as OAuthError;
}

describe("grant store: issuing and checking tokens", () => {
  it("creates a grant whose access token authenticates to it", async () => {
    const { store } = await freshStore();
    const { grant, tokens } = await store.create(signIn());
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "mcp" });
    expect(tokens.access_token).not.toBe(tokens.refresh_token);
    expect(store.authenticate(tokens.access_token)?.id).toBe(grant.id);
    expect(store.authenticate(tokens.refresh_token)).toBeUndefined();
    expect(store.authenticate("hao_at_unknown")).toBeUndefined();
    expect(store.get(grant.id)?.haRefreshToken).toBe(HA_SECRET);
  });

  it("stops accepting an access token once it expires", async () => {
    const { store, clock } = await freshStore({ accessTtlSeconds: 60 });
    const { tokens } = await store.create(signIn());
    clock.advance(59_999);
    expect(store.authenticate(tokens.access_token)).toBeDefined();
    clock.advance(1);
    expect(store.authenticate(tokens.access_token)).toBeUndefined();
  });

  it("updates lastUsedAt in memory on each use and writes it at most once a minute, or with the next change", async () => {
    const { store, clock, file } = await freshStore();
    const { grant, tokens } = await store.create(signIn());
    const t0 = grant.createdAt;
    const onDisk = async () => (JSON.parse(await readFile(file, "utf8")) as { grants: { lastUsedAt: number }[] }).grants[0]?.lastUsedAt;
    // Waits for whatever write is queued: remove() of an unknown id queues behind it and writes nothing.
    const settled = () => store.remove("no-such-grant");
    clock.advance(30_000);
    store.authenticate(tokens.access_token);
    expect(store.get(grant.id)?.lastUsedAt).toBe(t0 + 30_000);
    await settled();
    expect(await onDisk()).toBe(t0);
    clock.advance(31_000);
    store.authenticate(tokens.access_token);
    await settled();
    expect(await onDisk()).toBe(t0 + 61_000);
    clock.advance(10_000);
    store.authenticate(tokens.access_token);
    await store.create(signIn({ clientId: "client-2" }));
    expect(await onDisk()).toBe(t0 + 71_000);
  });
});

describe("grant store: refresh", () => {
  it("rotates both tokens; the previous access token keeps working until it expires", async () => {
    const { store } = await freshStore();
    const first = await store.create(signIn());
    const second = await store.refresh({ refreshToken: first.tokens.refresh_token, clientId: "client-1" });
    expect(second.grant.id).toBe(first.grant.id);
    expect(second.tokens.refresh_token).not.toBe(first.tokens.refresh_token);
    expect(store.authenticate(second.tokens.access_token)?.id).toBe(first.grant.id);
    expect(store.authenticate(first.tokens.access_token)?.id).toBe(first.grant.id);
    const third = await store.refresh({ refreshToken: second.tokens.refresh_token, clientId: "client-1", resource: "http://ha.local:8099/mcp" });
    expect(store.authenticate(third.tokens.access_token)).toBeDefined();
  });

  it("ends the whole grant when a used refresh token comes back, rotated tokens included", async () => {
    const { store, lines } = await freshStore();
    const first = await store.create(signIn());
    const second = await store.refresh({ refreshToken: first.tokens.refresh_token, clientId: "client-1" });
    const err = await refusal(store.refresh({ refreshToken: first.tokens.refresh_token, clientId: "client-1" }));
    expect(err.code).toBe("invalid_grant");
    expect(store.get(first.grant.id)).toBeUndefined();
    expect(store.authenticate(second.tokens.access_token)).toBeUndefined();
    expect(store.authenticate(first.tokens.access_token)).toBeUndefined();
    expect((await refusal(store.refresh({ refreshToken: second.tokens.refresh_token, clientId: "client-1" }))).code).toBe("invalid_grant");
    expect(lines.some((line) => line.includes("used a second time"))).toBe(true);
  });

  it("lets exactly one of two simultaneous refreshes with one token succeed, and ends the grant", async () => {
    const { store } = await freshStore();
    const { grant, tokens } = await store.create(signIn());
    const results = await Promise.allSettled([
      store.refresh({ refreshToken: tokens.refresh_token, clientId: "client-1" }),
      store.refresh({ refreshToken: tokens.refresh_token, clientId: "client-1" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = results.find((r) => r.status === "rejected");
    expect((rejected as PromiseRejectedResult).reason).toMatchObject({ code: "invalid_grant" });
    // The second use is treated as a copied token: the family ends, the winner's tokens too.
    expect(store.get(grant.id)).toBeUndefined();
  });

  it("refuses a refresh token of another client, an expired one, unknown ones and a foreign resource", async () => {
    const { store, clock } = await freshStore({ refreshTtlSeconds: 3600 });
    const { grant, tokens } = await store.create(signIn());
    expect((await refusal(store.refresh({ refreshToken: tokens.refresh_token, clientId: "client-2" }))).code).toBe("invalid_grant");
    expect((await refusal(store.refresh({ refreshToken: "hao_rt_nothing", clientId: "client-1" }))).code).toBe("invalid_grant");
    const target = await refusal(store.refresh({ refreshToken: tokens.refresh_token, clientId: "client-1", resource: "http://elsewhere/mcp" }));
    expect(target.code).toBe("invalid_target");
    expect(store.get(grant.id)).toBeDefined(); // none of those ended the grant
    clock.advance(3600_000);
    expect((await refusal(store.refresh({ refreshToken: tokens.refresh_token, clientId: "client-1" }))).code).toBe("invalid_grant");
    expect(store.get(grant.id)).toBeUndefined();
  });
});

describe("grant store: revoke and remove", () => {
  it("revokes an access token alone, and a refresh token with its grant", async () => {
    const { store } = await freshStore();
    const first = await store.create(signIn());
    const second = await store.refresh({ refreshToken: first.tokens.refresh_token, clientId: "client-1" });
    expect(await store.revoke(first.tokens.access_token)).toBe("access_token");
    expect(store.authenticate(first.tokens.access_token)).toBeUndefined();
    expect(store.authenticate(second.tokens.access_token)).toBeDefined();
    expect(await store.revoke(second.tokens.refresh_token)).toBe("grant");
    expect(store.authenticate(second.tokens.access_token)).toBeUndefined();
    expect(store.list()).toEqual([]);
    expect(await store.revoke("hao_rt_never-issued")).toBe("none");
  });

  it("ignores a revocation by another client", async () => {
    const { store } = await freshStore();
    const { tokens } = await store.create(signIn());
    expect(await store.revoke(tokens.refresh_token, { clientId: "client-2" })).toBe("none");
    expect(store.authenticate(tokens.access_token)).toBeDefined();
  });

  it("removes a grant by id and lists grants without secrets", async () => {
    const { store } = await freshStore();
    const { grant, tokens } = await store.create(signIn());
    const listed = JSON.stringify(store.list());
    expect(listed).toContain(grant.id);
    expect(listed).not.toContain(HA_SECRET);
    expect(listed).not.toContain(grant.refreshToken.hash);
    expect(await store.remove(grant.id)).toBe(true);
    expect(await store.remove(grant.id)).toBe(false);
    expect(store.authenticate(tokens.access_token)).toBeUndefined();
  });
});

describe("grant store: durability", () => {
  it("keeps grants, access tokens and refresh tokens across a restart", async () => {
    const { store, open } = await freshStore();
    const first = await store.create(signIn());
    const second = await store.refresh({ refreshToken: first.tokens.refresh_token, clientId: "client-1" });
    const again = await open();
    expect(again.authenticate(second.tokens.access_token)?.haRefreshToken).toBe(HA_SECRET);
    // Reuse detection survives too.
    expect((await refusal(again.refresh({ refreshToken: first.tokens.refresh_token, clientId: "client-1" }))).code).toBe("invalid_grant");
    expect(again.list()).toEqual([]);
    const third = await (await open()).create(signIn());
    const reopened = await open();
    expect((await reopened.refresh({ refreshToken: third.tokens.refresh_token, clientId: "client-1" })).grant.id).toBe(third.grant.id);
  });

  it("drops grants that nothing can use any more", async () => {
    const { store, clock, open } = await freshStore({ refreshTtlSeconds: 2 * DAY / 1000 });
    await store.create(signIn());
    clock.advance(2 * DAY);
    expect((await open()).list()).toEqual([]);
  });
});

describe("grant store: caps", () => {
  it("ends a user's least recently used grant past the per-user cap, leaving others alone", async () => {
    const { store, clock } = await freshStore({ maxGrantsPerPrincipal: 2 });
    const other = await store.create(signIn({ principal: { id: "user-2", name: "Bo", isAdmin: false } }));
    const a = await store.create(signIn());
    clock.advance(1000);
    const b = await store.create(signIn());
    clock.advance(1000);
    store.authenticate(a.tokens.access_token); // a is now the more recently used
    const c = await store.create(signIn());
    expect(store.list().map((g) => g.id).sort()).toEqual([other.grant.id, a.grant.id, c.grant.id].sort());
    expect(store.authenticate(b.tokens.access_token)).toBeUndefined();
  });

  it("keeps the total under the cap by ending the least recently used grant", async () => {
    const { store, clock } = await freshStore({ maxGrants: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      clock.advance(1000);
      ids.push((await store.create(signIn({ principal: { id: `user-${i}`, name: `U${i}`, isAdmin: false } }))).grant.id);
    }
    expect(store.list().map((g) => g.id)).toEqual(ids.slice(2));
  });
});

describe("grant store: secrets stay out of the log", () => {
  it("never writes the HA refresh token or an issued token to a log line", async () => {
    const { store, lines, open, file } = await freshStore({ maxGrantsPerPrincipal: 1 });
    const first = await store.create(signIn());
    const second = await store.refresh({ refreshToken: first.tokens.refresh_token, clientId: "client-1" });
    await refusal(store.refresh({ refreshToken: first.tokens.refresh_token, clientId: "client-1" }));
    const third = await store.create(signIn());
    await store.create(signIn()); // evicts the third
    await store.revoke(third.tokens.access_token);
    const text = await readFile(file, "utf8");
    await writeFile(file, text.slice(0, text.length - 10)); // damaged: the warning must not quote it
    await open();
    expect(lines.length).toBeGreaterThan(3);
    const all = lines.join("\n");
    for (const secret of [HA_SECRET, first.tokens.access_token, first.tokens.refresh_token, second.tokens.refresh_token, third.tokens.access_token]) {
      expect(all).not.toContain(secret);
    }
    expect(all).toContain("must sign in again");
  });
});
