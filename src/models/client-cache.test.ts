import { describe, expect, it } from "vitest";
import { manualClock } from "../shared/index.js";
import { ClientCache } from "./client-cache.js";

function cache(max = 3) {
  const clock = manualClock();
  const failures: string[] = [];
  const made: string[] = [];
  const clients = new ClientCache<string>({ clock, max, failureMs: 60_000, keep: (k) => k === "default", onFailure: (k) => failures.push(k) });
  const ok = (key: string) => clients.get(key, async () => (made.push(key), `client:${key}`));
  const broken = (key: string) => clients.get(key, async () => (made.push(key), Promise.reject(new Error(`${key} is down`))));
  return { clock, clients, ok, broken, made, failures };
}

describe("the set-up model clients", () => {
  it("keep at most max besides the configured model, dropping the least recently used first", async () => {
    const c = cache(3);
    await c.ok("default");
    for (const name of ["a", "b", "c"]) await c.ok(name);
    expect(c.clients.size).toBe(4);
    await c.ok("a"); // a is used again: b is now the oldest
    await c.ok("d");
    expect(c.clients.size).toBe(4);
    c.made.length = 0;
    await c.ok("a");
    await c.ok("c");
    await c.ok("d");
    await c.ok("default");
    expect(c.made).toEqual([]);
    await c.ok("b");
    expect(c.made).toEqual(["b"]);
  });

  it("never drop the configured model, however many others come and go", async () => {
    const c = cache(2);
    await c.ok("default");
    for (let i = 0; i < 100; i++) await c.ok(`m${i}`);
    expect(c.clients.size).toBe(3);
    c.made.length = 0;
    await c.ok("default");
    expect(c.made).toEqual([]);
  });

  it("remember a failed set-up for a minute and answer from it, then try again", async () => {
    const c = cache();
    await expect(c.broken("x")).rejects.toThrow("x is down");
    await Promise.resolve();
    expect(c.failures).toEqual(["x"]);
    for (let i = 0; i < 50; i++) await expect(c.broken("x")).rejects.toThrow("x is down");
    expect(c.made).toEqual(["x"]);
    c.clock.advance(59_999);
    await expect(c.broken("x")).rejects.toThrow("x is down");
    expect(c.made).toEqual(["x"]);
    c.clock.advance(1);
    await expect(c.ok("x")).resolves.toBe("client:x");
    expect(c.made).toEqual(["x", "x"]);
  });

  it("count remembered failures against the bound too", async () => {
    const c = cache(3);
    for (let i = 0; i < 20; i++) await c.broken(`gone${i}`).catch(() => undefined);
    expect(c.clients.size).toBe(3);
  });

  it("share one set-up between concurrent callers", async () => {
    const c = cache();
    const [one, two] = await Promise.all([c.ok("a"), c.ok("a")]);
    expect(one).toBe(two);
    expect(c.made).toEqual(["a"]);
  });

  it("hand every client set up to close, and are empty afterwards", async () => {
    const c = cache();
    await c.ok("default");
    await c.ok("a");
    await c.broken("b").catch(() => undefined);
    expect((await c.clients.drain()).sort()).toEqual(["client:a", "client:default"]);
    expect(c.clients.size).toBe(0);
  });
});
