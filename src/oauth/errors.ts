/**
 * An OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707 §2):
 * every refusal of the OAuth front is one of these, sent as JSON with the
 * status it names, never a stack trace. The description says what to do.
 */
export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  readonly status: number;
  /** Seconds to wait before trying again, sent as Retry-After (with 429 and 503). */
  readonly retryAfterS: number | undefined;
  /** What only the add-on's log may say: details that would tell an outsider about the network. */
  readonly logDetail: string | undefined;

  constructor(code: OAuthErrorCode, description: string, status = 400, options: { retryAfterS?: number; logDetail?: string } = {}) {
    super(description);
    this.name = "OAuthError";
    this.code = code;
    this.status = status;
    this.retryAfterS = options.retryAfterS;
    this.logDetail = options.logDetail;
  }

  /** The JSON body of the answer. */
  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.message };
  }
}

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "access_denied"
  | "server_error"
  | "temporarily_unavailable"
  | "slow_down";
