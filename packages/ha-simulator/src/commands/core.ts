import type { HassUser } from "../common/index.js";
import { CommandError, defineCommand, type Command } from "./command.js";
import { dict, intDict, positiveInt, str } from "./fields.js";

const NON_ADMIN_EVENTS = new Set([
  "area_registry_updated", "component_loaded", "core_config_updated", "device_registry_updated", "entity_registry_updated",
  "floor_registry_updated", "label_registry_updated", "lovelace_updated", "panels_updated", "service_registered", "service_removed",
  "shopping_list_updated", "state_changed", "themes_updated",
]);

/** The basics every client uses: ping, states, config, users and the event bus. */
export const coreCommands: Command[] = [
  defineCommand("ping", null, (conn, msg) => conn.sendMessage({ id: msg.id, type: "pong" })),

  defineCommand("supported_features", { features: intDict() }, (conn, msg) => {
    conn.setSupportedFeatures(msg.features as Record<string, number>);
    conn.sendResult(msg.id, null);
  }),

  defineCommand("get_states", null, (conn, msg) => conn.sendResult(msg.id, conn.ctx.home.states())),

  defineCommand("get_config", null, (conn, msg) => conn.sendResult(msg.id, conn.ctx.home.config(conn.ctx.haVersion))),

  defineCommand("auth/current_user", null, (conn, msg) => {
    const user = conn.user!;
    const result: HassUser & { is_owner: boolean } = {
      id: user.id,
      name: user.name,
      is_owner: user.isAdmin && conn.ctx.users.list()[0]?.id === user.id,
      is_admin: user.isAdmin,
      credentials: [{ auth_provider_type: "homeassistant", auth_provider_id: null }],
      mfa_modules: [{ id: "totp", name: "Authenticator app", enabled: false }],
    };
    conn.sendResult(msg.id, result);
  }),

  // Like HA, only an administrator may list the users; the group says who is one.
  defineCommand("config/auth/list", null, (conn, msg) => {
    if (!conn.user!.isAdmin) throw new CommandError("unauthorized", "Unauthorized");
    const owner = conn.ctx.users.list()[0]?.id;
    conn.sendResult(
      msg.id,
      conn.ctx.users.list().map((u) => ({ id: u.id, name: u.name, username: null, is_owner: u.id === owner, is_active: true, local_only: false, system_generated: false, group_ids: [u.isAdmin ? "system-admin" : "system-users"], credentials: [] })),
    );
  }),

  defineCommand("subscribe_events", { event_type: str().optional() }, (conn, msg) => {
    const { id } = msg;
    // Like HA, only admins may listen to every event or to events outside the allowlist.
    if (!conn.user!.isAdmin && (msg.event_type === undefined || !NON_ADMIN_EVENTS.has(msg.event_type))) {
      throw new CommandError("unauthorized", "Unauthorized");
    }
    const unsub = conn.ctx.home.bus.listen(msg.event_type === "*" ? undefined : msg.event_type, (event) =>
      conn.sendEventJson(id, event.toJson()),
    );
    conn.addSubscription(id, unsub);
    conn.sendResult(id, null);
  }),

  defineCommand("unsubscribe_events", { subscription: positiveInt() }, (conn, msg) => {
    if (!conn.removeSubscription(msg.subscription)) throw new CommandError("not_found", "Subscription not found.");
    conn.sendResult(msg.id, null);
  }),

  defineCommand(
    "fire_event",
    { event_type: str(), event_data: dict().optional() },
    (conn, msg) => {
      const context = conn.ctx.home.newContext(conn.user!.id);
      conn.ctx.home.fireEvent(msg.event_type, msg.event_data ?? {}, context);
      conn.sendResult(msg.id, { context });
    },
    { adminOnly: true },
  ),
];
