import { z } from "zod";
import { dict } from "../common/index.js";
import { ConfigInvalid, validateActions, validateConditions, validateTriggers } from "../automations/index.js";
import { CommandError, defineCommand, type Command } from "./command.js";
import { oneOf, str } from "./fields.js";

const TRACE_DOMAINS = ["automation", "script"] as const;
/** `cv.match_all`: anything. */
const anything = () => z.unknown();

function engineOf(conn: Parameters<Command["handle"]>[0]) {
  const engine = conn.ctx.home.automations;
  if (!engine) throw new CommandError("unknown_error", "Unknown error.");
  return engine;
}

/** HA's `validate_config` answer for one section: `{valid, error}`. */
function check(validate: (v: unknown) => unknown, value: unknown): { valid: boolean; error: string | null } {
  try {
    validate(value);
    return { valid: true, error: null };
  } catch (err) {
    if (err instanceof ConfigInvalid) return { valid: false, error: err.message };
    throw err;
  }
}

/**
 * Traces (`trace/websocket_api.py`, admins only), `validate_config`
 * (`websocket_api/commands.py`, open to every user, plural keys only: a
 * singular key is `invalid_format`), and `automation/config` (the config
 * behind an automation entity, admins only).
 */
export const automationCommands: Command[] = [
  defineCommand(
    "trace/list",
    { domain: oneOf(TRACE_DOMAINS), item_id: str().optional() },
    (conn, msg) => conn.sendResult(msg.id, engineOf(conn).traces.list(msg.domain, msg.item_id).map((t) => t.shortDict())),
    { adminOnly: true },
  ),

  defineCommand(
    "trace/get",
    { domain: oneOf(TRACE_DOMAINS), item_id: str(), run_id: str() },
    (conn, msg) => {
      const trace = engineOf(conn).traces.get(msg.domain, msg.item_id, msg.run_id);
      if (!trace) throw new CommandError("not_found", "The trace could not be found");
      conn.sendResult(msg.id, trace.extendedDict());
    },
    { adminOnly: true },
  ),

  // vol.Inclusive: domain and item_id come together or not at all.
  defineCommand(
    "trace/contexts",
    { domain: oneOf(TRACE_DOMAINS).optional(), item_id: str().optional() },
    (conn, msg) => {
      if ((msg.domain === undefined) !== (msg.item_id === undefined)) {
        throw new CommandError("invalid_format", "some but not all values in the same group of inclusion 'id' @ data[<id>]");
      }
      conn.sendResult(msg.id, engineOf(conn).traces.contexts(msg.domain, msg.item_id));
    },
    { adminOnly: true },
  ),

  defineCommand("validate_config", { triggers: anything().optional(), conditions: anything().optional(), actions: anything().optional() }, (conn, msg) => {
    const result = dict<{ valid: boolean; error: string | null }>();
    if (Object.hasOwn(msg, "triggers")) result.triggers = check(validateTriggers, msg.triggers);
    if (Object.hasOwn(msg, "conditions")) result.conditions = check(validateConditions, msg.conditions);
    if (Object.hasOwn(msg, "actions")) result.actions = check(validateActions, msg.actions);
    conn.sendResult(msg.id, result);
  }),

  defineCommand(
    "automation/config",
    { entity_id: str() },
    (conn, msg) => {
      const engine = engineOf(conn);
      const config = engine.configOfEntity(msg.entity_id);
      if (!config) throw new CommandError("not_found", "Entity not found");
      conn.sendResult(msg.id, { config });
    },
    { adminOnly: true },
  ),
];
