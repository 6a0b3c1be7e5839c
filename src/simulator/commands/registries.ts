import { z } from "zod";
import type { ExtendedEntityRegistryEntry } from "../../ha/types.js";
import { configEntryForm, entityDisplayList, entityExtendedForm, entityListForm } from "../registries.js";
import { CommandError, EmptySchema, defineCommand, type Command } from "./command.js";

/** The registry lists and lookups HA's frontend uses. */
export const registryCommands: Command[] = [
  defineCommand("config/entity_registry/list", EmptySchema, (conn, msg) => {
    conn.sendResult(msg.id, Array.from(conn.ctx.home.registries.entities.values(), entityListForm));
  }),

  defineCommand("config/entity_registry/list_for_display", EmptySchema, (conn, msg) => {
    conn.sendResult(msg.id, entityDisplayList(conn.ctx.home.registries.entities.values()));
  }),

  defineCommand("config/entity_registry/get", z.object({ entity_id: z.string() }), (conn, msg) => {
    const home = conn.ctx.home;
    const entry = home.registries.entities.get(msg.entity_id);
    if (!entry) throw new CommandError("not_found", "Entity not found");
    conn.sendResult(msg.id, entityExtendedForm(entry, home.getState(msg.entity_id)?.attributes));
  }),

  defineCommand("config/entity_registry/get_entries", z.object({ entity_ids: z.array(z.string()) }), (conn, msg) => {
    const home = conn.ctx.home;
    const result: Record<string, ExtendedEntityRegistryEntry | null> = {};
    for (const entityId of msg.entity_ids) {
      const entry = home.registries.entities.get(entityId);
      result[entityId] = entry ? entityExtendedForm(entry, home.getState(entityId)?.attributes) : null;
    }
    conn.sendResult(msg.id, result);
  }),

  defineCommand("config/device_registry/list", EmptySchema, (conn, msg) => {
    conn.sendResult(
      msg.id,
      Array.from(conn.ctx.home.registries.devices.values(), (d) => ({ ...d, config_entries_subentries: subentries(d.config_entries) })),
    );
  }),

  defineCommand("config/area_registry/list", EmptySchema, (conn, msg) => {
    conn.sendResult(msg.id, [...conn.ctx.home.registries.areas.values()]);
  }),

  defineCommand("config/floor_registry/list", EmptySchema, (conn, msg) => {
    conn.sendResult(msg.id, [...conn.ctx.home.registries.floors.values()]);
  }),

  defineCommand("config/label_registry/list", EmptySchema, (conn, msg) => {
    conn.sendResult(msg.id, [...conn.ctx.home.registries.labels.values()]);
  }),

  defineCommand("config_entries/get", z.object({ domain: z.string().optional(), type_filter: z.unknown().optional() }), (conn, msg) => {
    const home = conn.ctx.home;
    const rows = [...home.registries.configEntries.values()].filter((c) => !msg.domain || c.domain === msg.domain);
    conn.sendResult(msg.id, rows.map((c) => configEntryForm(c, home.createdAt)));
  }),
];

function subentries(entries: string[]): Record<string, (string | null)[]> {
  return Object.fromEntries(entries.map((e) => [e, [null]]));
}
