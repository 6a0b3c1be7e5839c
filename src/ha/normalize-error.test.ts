import { describe, expect, it } from "vitest";
import { HaAgentError } from "../shared/index.js";
import { HaAuthError, HaCommandError, HaNotConnectedError } from "./errors.js";
import { normalizeHaError } from "./normalize-error.js";

describe("normalizeHaError", () => {
  it("turns HA's {code, message} into HaCommandError with both kept", () => {
    const err = normalizeHaError({ code: "not_found", message: "Service light.nope not found." });
    expect(err).toBeInstanceOf(HaCommandError);
    expect(err.code).toBe("not_found");
    expect(err.message).toBe("Service light.nope not found.");
  });

  it("unwraps a whole failed result object", () => {
    const err = normalizeHaError({ id: 7, type: "result", success: false, error: { code: "invalid_format", message: "bad" } });
    expect(err).toBeInstanceOf(HaCommandError);
    expect(err.code).toBe("invalid_format");
    expect(err.message).toBe("bad");
  });

  it("maps the library's connection-lost result object to HaNotConnectedError", () => {
    const err = normalizeHaError({ type: "result", success: false, error: { code: 3, message: "Connection lost" } });
    expect(err).toBeInstanceOf(HaNotConnectedError);
    expect(err.message).toContain("Connection lost");
  });

  it("maps the bare numbers 3 and 1 to HaNotConnectedError", () => {
    expect(normalizeHaError(3)).toBeInstanceOf(HaNotConnectedError);
    expect(normalizeHaError(1)).toBeInstanceOf(HaNotConnectedError);
    expect(normalizeHaError(3).code).toBe("ha_not_connected");
  });

  it("names other library numbers and unknown numbers in HaCommandError", () => {
    const auth = normalizeHaError(2);
    expect(auth).toBeInstanceOf(HaCommandError);
    expect(auth.code).toBe("invalid_auth");
    const unknown = normalizeHaError(42);
    expect(unknown).toBeInstanceOf(HaCommandError);
    expect(unknown.code).toBe("ERR_42");
  });

  it("keeps a code without a message usable", () => {
    const err = normalizeHaError({ code: "timeout" });
    expect(err.code).toBe("timeout");
    expect(err.message).toContain("timeout");
  });

  it("passes our own typed errors through unchanged", () => {
    const original = new HaAuthError("auth_invalid: x");
    expect(normalizeHaError(original)).toBe(original);
  });

  it("wraps plain Errors and odd values as unknown_error with their text", () => {
    const fromError = normalizeHaError(new Error("Pre-check failed"));
    expect(fromError).toBeInstanceOf(HaCommandError);
    expect(fromError.code).toBe("unknown_error");
    expect(fromError.message).toBe("Pre-check failed");
    const fromString = normalizeHaError("boom");
    expect(fromString.message).toBe("boom");
    const fromNull = normalizeHaError(null);
    expect(fromNull).toBeInstanceOf(HaAgentError);
    expect(fromNull.code).toBe("unknown_error");
  });
});
