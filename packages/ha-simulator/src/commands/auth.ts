import { CommandError, defineCommand, type Command } from "./command.js";
import { str } from "./fields.js";

/**
 * The profile page's refresh-token commands: list the user's logins, and
 * remove one, which ends its access tokens and closes the connections they opened.
 * Only logins made through `/auth/authorize` are listed; long-lived tokens are not.
 */
export const authCommands: Command[] = [
  defineCommand("auth/refresh_tokens", null, (conn, msg) => {
    const current = conn.token === undefined ? undefined : conn.ctx.auth.refreshTokenIdOf(conn.token);
    const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString().replace("Z", "+00:00"));
    conn.sendResult(
      msg.id,
      conn.ctx.auth.refreshTokens(conn.user!.id).map((t) => ({
        id: t.id,
        client_id: t.clientId,
        client_name: null,
        client_icon: null,
        type: "normal",
        created_at: iso(t.createdAt),
        is_current: t.id === current,
        last_used_at: iso(t.lastUsedAt),
        last_used_ip: null,
        auth_provider_type: "homeassistant",
      })),
    );
  }),

  defineCommand("auth/delete_refresh_token", { refresh_token_id: str() }, (conn, msg) => {
    const own = conn.ctx.auth.refreshTokens(conn.user!.id).some((t) => t.id === msg.refresh_token_id);
    if (!own) throw new CommandError("invalid_token_id", "Received invalid token");
    conn.sendResult(msg.id, {});
    // Removing the connection's own login closes it, so remove after the answer has been written.
    setImmediate(() => conn.ctx.auth.removeRefreshToken(msg.refresh_token_id));
  }),
];
