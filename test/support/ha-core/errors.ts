import type { AuthenticateHeader } from "./auth-header.js";

/**
 * The outcomes of Home Assistant's config flow and coordinator, named as HA
 * names them, so a failing test says which HA step gave up and why.
 */
export class HaFlowAbort extends Error {
  /** `reason` is the abort reason HA's flow returns (`cannot_connect`, `oauth_registration_failed`, ...). */
  constructor(readonly step: string, readonly reason: string, detail: string) {
    super(`Home Assistant's mcp flow aborts in ${step} with "${reason}": ${detail}`);
  }
}

/** config_flow.py `InvalidAuth`: a 401 on connect, carrying the parsed challenge. */
export class InvalidAuth extends Error {
  constructor(readonly metadata: AuthenticateHeader | null) {
    super("the MCP server answered 401");
  }
}

/** config_flow.py `CannotConnect` and its subclass `NotFoundError`; `TimeoutConnectError`. */
export class CannotConnect extends Error {}
/** httpx `HTTPStatusError`: a non-2xx answer, with the response HA reads headers from. */
export class HttpStatusError extends Error {
  constructor(readonly response: Response, readonly url: string) {
    super(`HTTP ${response.status} from ${url}`);
  }
}
export class NotFoundError extends CannotConnect {}
export class TimeoutConnectError extends Error {}

/** helpers/update_coordinator.py `UpdateFailed`: the entry offers Assist none of the server's tools. */
export class UpdateFailed extends Error {}
