import { KNOWN_ASSISTANTS } from "../exposure.js";
import { CommandError, defineCommand, type Command } from "./command.js";
import { bool, oneOf, str } from "./fields.js";
import { z } from "zod";

// Group entities HA never exposes to any assistant (CLOUD_NEVER_EXPOSED_ENTITIES).
const NEVER_EXPOSED = new Set(["group.all_automations", "group.all_covers", "group.all_fans", "group.all_lights", "group.all_locks", "group.all_remotes", "group.all_scripts", "group.all_switches", "group.all_vacuum_cleaners"]);

/** The voice-assistant exposure commands of HA's `homeassistant` integration; all need an admin. */
export const exposureCommands: Command[] = [
  defineCommand(
    "homeassistant/expose_entity/list",
    null,
    (conn, msg) => conn.sendResult(msg.id, { exposed_entities: conn.ctx.home.exposure.list(conn.ctx.home.registries.entities.keys()) }),
    { adminOnly: true },
  ),
  defineCommand(
    "homeassistant/expose_new_entities/get",
    { assistant: oneOf(KNOWN_ASSISTANTS) },
    (conn, msg) => conn.sendResult(msg.id, { expose_new: conn.ctx.home.exposure.exposeNew(msg.assistant) }),
    { adminOnly: true },
  ),
  defineCommand(
    "homeassistant/expose_entity",
    { assistants: z.array(oneOf(KNOWN_ASSISTANTS), { error: "expected a list" }), entity_ids: z.array(str(), { error: "expected a list" }), should_expose: bool() },
    (conn, msg) => {
      const blocked = msg.entity_ids.find((id) => NEVER_EXPOSED.has(id));
      if (blocked) throw new CommandError("not_allowed", `can't expose '${blocked}'`);
      for (const id of msg.entity_ids) for (const a of msg.assistants) conn.ctx.home.exposure.expose(id, a, msg.should_expose);
      conn.sendResult(msg.id, null);
    },
    { adminOnly: true },
  ),
];
