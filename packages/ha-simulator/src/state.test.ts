import { describe, expect, it } from "vitest";
import { diffStates, makeState } from "./state.js";

const context = { id: "01JD0000000000000000000000", parent_id: null, user_id: null };
const at = (attributes: Record<string, unknown>, ms = 1_000) =>
  makeState({ entityId: "sensor.x", state: "1", attributes, changedMs: 1_000, updatedMs: ms, context });

describe("diffStates", () => {
  it("sees attributes whose names match Object.prototype members", () => {
    const diff = diffStates(at({ toString: 1 }), at({ constructor: "new" }, 2_000));
    expect(diff).toEqual({ "+": { lu: 2, a: { constructor: "new" } }, "-": { a: ["toString"] } });
  });
});
