import { HaAgentError } from "../shared/index.js";

/** Home Assistant refused the access token, over WebSocket (`auth_invalid`) or REST (401/403). */
export class HaAuthError extends HaAgentError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      "ha_auth_failed",
      `Home Assistant rejected the access token (${detail}). ` +
        "In standalone mode set HA_TOKEN to a valid long-lived access token (HA profile → Security); " +
        "in add-on mode restart the add-on so the Supervisor issues a fresh SUPERVISOR_TOKEN.",
      options,
    );
  }
}

/** The first connection attempt could not reach Home Assistant at all. */
export class HaConnectionError extends HaAgentError {
  readonly url: string;

  constructor(url: string, reason: string, options?: { cause?: unknown }) {
    super(
      "ha_unreachable",
      `Could not connect to Home Assistant at ${url}: ${reason}. Check HA_URL and that Home Assistant is running and reachable from here.`,
      options,
    );
    this.url = url;
  }
}

/** A command was sent, or was in flight, while the WebSocket was down. */
export class HaNotConnectedError extends HaAgentError {
  constructor(reason: string) {
    super("ha_not_connected", `Not connected to Home Assistant (${reason}).`);
  }
}

/**
 * Home Assistant answered a command with an error. `code` is HA's own code
 * (`not_found`, `invalid_format`, `template_error`, `home_assistant_error`…)
 * and `message` is HA's text, which already says what was wrong.
 */
export class HaCommandError extends HaAgentError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** A REST call got a non-2xx answer or no answer at all (`status` is null then). `body`: the answer's text, when there was one. */
export class HaRestError extends HaAgentError {
  readonly status: number | null;
  readonly body: string | undefined;

  constructor(status: number | null, message: string, options?: { cause?: unknown; body?: string }) {
    super("ha_rest_error", message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.body = options?.body;
  }
}

/**
 * A read Home Assistant shows to administrators only, asked for a person
 * who is not one. HA Agent reads HA with an administrator's token, so it
 * refuses here what HA itself would refuse that person.
 */
export class HaAdminOnlyError extends HaAgentError {
  constructor(read: { what: string; known: boolean }) {
    super(
      "admin_only",
      read.known
        ? `Home Assistant shows ${read.what} to administrators only, and you are not one, so HA Agent does not show it to you either. Ask an administrator of this Home Assistant.`
        : `HA Agent does not know whether Home Assistant shows ${read.what} to everyone, so it shows it to administrators only. Ask an administrator of this Home Assistant.`,
    );
  }
}
