import type { ExtendedEntityRegistryEntry } from "../common/index.js";
import { dict } from "../common/index.js";
import { configEntryForm, deviceWireForm, entityDisplayList, entityExtendedForm, entityListForm } from "../registries.js";
import { CommandError, defineCommand, type Command } from "./command.js";
import { entityId, entityIds, str, stringList } from "./fields.js";

/** The registry lists and lookups HA's frontend uses, with HA's schemas. */
export const registryCommands: Command[] = [
  defineCommand("config/entity_registry/list", null, (conn, msg) => {
    conn.sendResult(msg.id, Array.from(conn.ctx.home.registries.entities.values(), entityListForm));
  }),

  defineCommand("config/entity_registry/list_for_display", null, (conn, msg) => {
    conn.sendResult(msg.id, entityDisplayList(conn.ctx.home.registries.entities.values()));
  }),

  defineCommand("config/entity_registry/get", { entity_id: entityId() }, (conn, msg) => {
    const home = conn.ctx.home;
    const entry = home.registries.entities.get(msg.entity_id);
    if (!entry) throw new CommandError("not_found", "Entity not found");
    conn.sendResult(msg.id, entityExtendedForm(entry, home.getState(msg.entity_id)?.attributes));
  }),

  defineCommand("config/entity_registry/get_entries", { entity_ids: entityIds() }, (conn, msg) => {
    const home = conn.ctx.home;
    const result = dict<ExtendedEntityRegistryEntry | null>();
    for (const id of msg.entity_ids) {
      const entry = home.registries.entities.get(id);
      result[id] = entry ? entityExtendedForm(entry, home.getState(id)?.attributes) : null;
    }
    conn.sendResult(msg.id, result);
  }),

  defineCommand("config/device_registry/list", null, (conn, msg) => {
    conn.sendResult(msg.id, Array.from(conn.ctx.home.registries.devices.values(), deviceWireForm));
  }),

  defineCommand("config/area_registry/list", null, (conn, msg) => {
    conn.sendResult(msg.id, [...conn.ctx.home.registries.areas.values()]);
  }),

  defineCommand("config/floor_registry/list", null, (conn, msg) => {
    conn.sendResult(msg.id, [...conn.ctx.home.registries.floors.values()]);
  }),

  defineCommand("config/label_registry/list", null, (conn, msg) => {
    conn.sendResult(msg.id, [...conn.ctx.home.registries.labels.values()]);
  }),

  defineCommand("config_entries/get", { type_filter: stringList().optional(), domain: str().optional() }, (conn, msg) => {
    const home = conn.ctx.home;
    const rows = [...home.registries.configEntries.values()].filter((c) => !msg.domain || c.domain === msg.domain);
    conn.sendResult(msg.id, rows.map((c) => configEntryForm(c, home.createdAt)));
  }),
];
