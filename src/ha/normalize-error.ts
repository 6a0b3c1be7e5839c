import { HaAgentError, describeError } from "../shared/index.js";
import { HaCommandError, HaNotConnectedError } from "./errors.js";

/** The bare numbers home-assistant-js-websocket throws (its `errors.ts`). */
const LIBRARY_ERROR_CODES: Record<number, string> = {
  1: "cannot_connect",
  2: "invalid_auth",
  3: "connection_lost",
  4: "hass_host_required",
  5: "invalid_https_to_http",
  6: "invalid_auth_callback",
};

const NOT_CONNECTED_CODES = new Set([1, 3]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function fromNumber(code: number, message?: string): HaAgentError {
  const name = LIBRARY_ERROR_CODES[code] ?? `ERR_${code}`;
  if (NOT_CONNECTED_CODES.has(code)) return new HaNotConnectedError(message ?? name.replace("_", " "));
  return new HaCommandError(name, message ?? `home-assistant-js-websocket failed with error ${code} (${name})`);
}

/**
 * The one place where whatever a command rejected with becomes a typed error.
 * The library rejects with HA's `{code, message}`, with a whole
 * `{type:"result", success:false, error}` object that it builds itself on
 * connection loss, or with a bare number such as `3`; anything else is kept
 * as an `unknown_error` with its text.
 */
export function normalizeHaError(err: unknown): HaAgentError {
  if (err instanceof HaAgentError) return err;
  if (typeof err === "number") return fromNumber(err);
  if (isRecord(err)) {
    if (err.type === "result" && "error" in err) return normalizeHaError(err.error);
    if ("code" in err) {
      const message = typeof err.message === "string" ? err.message : undefined;
      if (typeof err.code === "number") return fromNumber(err.code, message);
      if (typeof err.code === "string") return new HaCommandError(err.code, message ?? `Home Assistant answered ${err.code}`);
    }
  }
  if (err instanceof Error) return new HaCommandError("unknown_error", err.message, { cause: err });
  return new HaCommandError("unknown_error", describeError(err));
}
