import { describe, expect, it } from "vitest";
import { StringPool } from "./string-pool.js";

describe("the string pool", () => {
  it("gives back the same value, and other values as they are", () => {
    const pool = new StringPool();
    expect(pool.of("measurement")).toBe("measurement");
    expect(pool.of(null)).toBeNull();
    expect(pool.of(21.5)).toBe(21.5);
    expect(pool.size).toBe(1);
  });

  it("starts again when full and leaves long strings out, so one-off values never hold more than its size", () => {
    const pool = new StringPool(3, 8);
    for (const v of ["a", "b", "c"]) pool.of(v);
    expect(pool.size).toBe(3);
    expect(pool.of("d")).toBe("d");
    expect(pool.size).toBe(1);
    pool.of("a much longer value");
    expect(pool.size).toBe(1);
  });

  it("does not keep a state's readings and times, which change with every update", () => {
    const pool = new StringPool();
    for (let i = 0; i < 100; i++) {
      pool.ofState(`21.${i}`);
      pool.ofState(`-${i}`);
      pool.attributes({ last_triggered: `2026-11-26T12:${String(i).padStart(2, "0")}:00+00:00` });
    }
    expect(pool.size).toBe(0);
    expect(pool.ofState("unavailable")).toBe("unavailable");
    expect(pool.size).toBe(1);
  });

  it("pools attribute values and lists of strings, leaving friendly_name and other values alone", () => {
    const pool = new StringPool();
    const attrs = pool.attributes({ friendly_name: "Hall Lamp", state_class: "measurement", effect_list: ["Rainbow", "Candle"], brightness: 128, nested: { a: "b" } });
    expect(attrs).toEqual({ friendly_name: "Hall Lamp", state_class: "measurement", effect_list: ["Rainbow", "Candle"], brightness: 128, nested: { a: "b" } });
    expect(pool.size).toBe(3);
  });
});
