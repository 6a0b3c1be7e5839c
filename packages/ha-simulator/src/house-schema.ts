import { z } from "zod";
import { HouseScriptedHistorySchema, houseLogicFields } from "./house-logic-schema.js";

/**
 * The house document: everything the simulator needs to play a home. Optional
 * fields default to what Home Assistant itself would store, so a hand-written
 * file can stay short.
 */

const nullableString = z.string().nullable().default(null);
/**
 * A JSON object taken as it is, not copied: zod's records drop a `__proto__`
 * key, and HA keeps any attribute name, so the simulator must too.
 */
const jsonObject = () =>
  z.custom<Record<string, unknown>>((v) => typeof v === "object" && v !== null && !Array.isArray(v), { message: "expected an object" });
const stringList = z.array(z.string()).default([]);
const pairList = z.array(z.tuple([z.string(), z.string()])).default([]);

export const HouseConfigSchema = z.object({
  location_name: z.string().default("Home"),
  latitude: z.number().default(52.3731),
  longitude: z.number().default(4.8922),
  elevation: z.number().default(0),
  radius: z.number().default(100),
  time_zone: z.string().default("UTC"),
  country: z.string().nullable().default(null),
  currency: z.string().default("EUR"),
  language: z.string().default("en"),
  unit_system: z.enum(["metric", "us_customary"]).default("metric"),
  // Settings → System → Network; both are empty on a fresh install.
  internal_url: z.string().nullable().default(null),
  external_url: z.string().nullable().default(null),
});

export const HouseFloorSchema = z.object({
  floor_id: z.string().min(1),
  name: z.string().min(1),
  level: z.number().int().nullable().default(null),
  icon: nullableString,
  aliases: stringList,
});

export const HouseAreaSchema = z.object({
  area_id: z.string().min(1),
  name: z.string().min(1),
  floor_id: nullableString,
  aliases: stringList,
  icon: nullableString,
  labels: stringList,
  picture: nullableString,
  humidity_entity_id: nullableString,
  temperature_entity_id: nullableString,
});

export const HouseLabelSchema = z.object({
  label_id: z.string().min(1),
  name: z.string().min(1),
  icon: nullableString,
  color: nullableString,
  description: nullableString,
});

export const HouseConfigEntrySchema = z.object({
  entry_id: z.string().min(1),
  domain: z.string().min(1),
  title: z.string(),
});

/** The fields a child device (HA 2026.9) does not have: it is a logical part of its parent, with no hardware of its own. */
export const CHILD_DEVICE_ABSENT_FIELDS = [
  "manufacturer", "model", "model_id", "connections", "via_device_id", "configuration_url", "entry_type", "hw_version", "sw_version", "serial_number",
] as const;

const HouseDeviceObjectSchema = z.object({
  id: z.string().min(1),
  name: z.string().nullable(),
  name_by_user: nullableString,
  manufacturer: nullableString,
  model: nullableString,
  model_id: nullableString,
  /** A child device without an area of its own is in its parent's area. */
  area_id: nullableString,
  /** The one config entry the device belongs to (HA 2026.8). */
  config_entry_id: z.string().nullable().optional(),
  config_subentry_id: nullableString,
  /** Before HA 2026.8: read for older house files, and only one entry may be named. */
  config_entries: z.array(z.string()).max(1, "a device belongs to one config entry since HA 2026.8; keep one, or give config_entry_id").optional(),
  primary_config_entry: z.string().nullable().optional(),
  /** Makes this a child device (HA 2026.9) of that device. */
  parent_device_id: nullableString,
  identifiers: pairList,
  connections: pairList,
  sw_version: nullableString,
  hw_version: nullableString,
  serial_number: nullableString,
  via_device_id: nullableString,
  entry_type: nullableString,
  labels: stringList,
  disabled_by: nullableString,
  configuration_url: nullableString,
});

/** A device as HA 2026.8+ stores it: one config entry; the older list fields of a house file are folded into it. */
export const HouseDeviceSchema = HouseDeviceObjectSchema.transform(({ config_entries, primary_config_entry, ...d }) => ({
  ...d,
  config_entry_id: d.config_entry_id ?? primary_config_entry ?? config_entries?.[0] ?? null,
}));

export const HouseEntityRegistrySchema = z.object({
  platform: z.string().min(1),
  /** Defaults to the entity id when left out. */
  unique_id: z.string().min(1).optional(),
  device_id: nullableString,
  area_id: nullableString,
  config_entry_id: nullableString,
  labels: stringList,
  disabled_by: nullableString,
  hidden_by: nullableString,
  entity_category: z.enum(["config", "diagnostic"]).nullable().default(null),
  has_entity_name: z.boolean().default(false),
  original_name: nullableString,
  name: nullableString,
  icon: nullableString,
  translation_key: nullableString,
  aliases: stringList,
  original_device_class: nullableString,
});

/** One action of a script's sequence; `action` is `domain.service`. */
export const HouseScriptStepSchema = z.object({
  action: z.string().regex(/^[a-z0-9_]+\.[a-z0-9_]+$/, "expected domain.service"),
  target: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
  data: jsonObject().optional(),
});

export const HouseEntitySchema = z.object({
  /** HA's valid_entity_id: lower case, no leading, trailing or doubled underscores. */
  entity_id: z.string().regex(/^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/, "expected domain.object_id: lower-case letters, digits and single underscores"),
  /** HA states are strings; numbers are accepted and converted. Disabled entities may leave it out. */
  state: z
    .union([z.string(), z.number()])
    .transform((v) => String(v))
    .default("unknown"),
  attributes: jsonObject().default({}),
  /** Absent for entities without a registry entry (like YAML entities in HA). */
  registry: HouseEntityRegistrySchema.optional(),
  /** For `scene.*`: the member states the scene applies (state plus attributes). */
  scene: z.record(z.string(), jsonObject()).optional(),
  /** For `script.*`: the actions `script.turn_on` runs. */
  sequence: z.array(HouseScriptStepSchema).optional(),
});

export const HouseSystemLogEntrySchema = z.object({
  name: z.string(),
  message: z.array(z.string()),
  level: z.enum(["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]),
  source: z.tuple([z.string(), z.number()]),
  timestamp: z.number(),
  first_occurred: z.number(),
  count: z.number().int().min(1),
  exception: z.string().default(""),
});

export const HouseHistorySchema = z.object({
  flapping: stringList,
  outages: z
    .array(z.object({ entity_id: z.string(), start_hours_ago: z.number().min(0).max(24), hours: z.number().positive() }))
    .default([]),
  /** Entities whose history is written out instead of generated. */
  scripted: z.array(HouseScriptedHistorySchema).default([]),
});

const HouseObjectSchema = z.object({
  name: z.string().default("Home"),
  config: HouseConfigSchema.default(HouseConfigSchema.parse({})),
  floors: z.array(HouseFloorSchema).default([]),
  areas: z.array(HouseAreaSchema).default([]),
  labels: z.array(HouseLabelSchema).default([]),
  config_entries: z.array(HouseConfigEntrySchema).default([]),
  devices: z.array(HouseDeviceSchema).default([]),
  entities: z.array(HouseEntitySchema),
  history: HouseHistorySchema.optional(),
  system_log: z.array(HouseSystemLogEntrySchema).optional(),
  error_log: z.string().optional(),
  ...houseLogicFields,
});

export const HouseSchema = HouseObjectSchema.superRefine((house, ctx) => checkReferences(house, ctx));

export type House = z.infer<typeof HouseSchema>;
export type HouseConfig = z.infer<typeof HouseConfigSchema>;
/** What a house file may contain before defaults are applied. */
export type HouseInput = z.input<typeof HouseSchema>;
export type HouseEntity = z.infer<typeof HouseEntitySchema>;
export type HouseEntityInput = z.input<typeof HouseEntitySchema>;
export type HouseDevice = z.infer<typeof HouseDeviceSchema>;
export type HouseArea = z.infer<typeof HouseAreaSchema>;
export type HouseFloor = z.infer<typeof HouseFloorSchema>;
export type HouseLabel = z.infer<typeof HouseLabelSchema>;
export type HouseConfigEntry = z.infer<typeof HouseConfigEntrySchema>;
export type HouseSystemLogEntry = z.infer<typeof HouseSystemLogEntrySchema>;
export type HouseDeviceInput = z.input<typeof HouseDeviceSchema>;
export type HouseAreaInput = z.input<typeof HouseAreaSchema>;
export type HouseFloorInput = z.input<typeof HouseFloorSchema>;
export type HouseLabelInput = z.input<typeof HouseLabelSchema>;

type Issue = { path: (string | number)[]; message: string };

/** Cross-references a schema cannot express: ids must be unique and point at something that exists. */
function checkReferences(house: z.infer<typeof HouseObjectSchema>, ctx: z.RefinementCtx): void {
  const issues: Issue[] = [];
  const floors = unique(house.floors.map((f) => f.floor_id), "floors", "floor_id", issues);
  const areas = unique(house.areas.map((a) => a.area_id), "areas", "area_id", issues);
  const labels = unique(house.labels.map((l) => l.label_id), "labels", "label_id", issues);
  const entries = unique(house.config_entries.map((c) => c.entry_id), "config_entries", "entry_id", issues);
  const devices = unique(house.devices.map((d) => d.id), "devices", "id", issues);
  unique(house.entities.map((e) => e.entity_id), "entities", "entity_id", issues);

  const ref = (set: Set<string>, value: string | null | undefined, path: (string | number)[], what: string, list = `${what}s`) => {
    if (value != null && !set.has(value)) issues.push({ path, message: `unknown ${what} "${value}"; add it to ${list} or fix the id` });
  };
  house.areas.forEach((a, i) => {
    ref(floors, a.floor_id, ["areas", i, "floor_id"], "floor");
    a.labels.forEach((l, j) => ref(labels, l, ["areas", i, "labels", j], "label"));
  });
  const byId = new Map(house.devices.map((d) => [d.id, d]));
  house.devices.forEach((d, i) => {
    ref(areas, d.area_id, ["devices", i, "area_id"], "area");
    ref(devices, d.via_device_id, ["devices", i, "via_device_id"], "device");
    ref(entries, d.config_entry_id, ["devices", i, "config_entry_id"], "config entry", "config_entries");
    ref(devices, d.parent_device_id, ["devices", i, "parent_device_id"], "device");
    if (d.parent_device_id) issues.push(...childDeviceIssues(d, byId.get(d.parent_device_id), i));
    d.labels.forEach((l, j) => ref(labels, l, ["devices", i, "labels", j], "label"));
  });
  house.entities.forEach((e, i) => {
    const r = e.registry;
    if (!r) return;
    ref(devices, r.device_id, ["entities", i, "registry", "device_id"], "device");
    ref(areas, r.area_id, ["entities", i, "registry", "area_id"], "area");
    ref(entries, r.config_entry_id, ["entities", i, "registry", "config_entry_id"], "config entry", "config_entries");
    r.labels.forEach((l, j) => ref(labels, l, ["entities", i, "registry", "labels", j], "label"));
  });
  for (const issue of issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
}

/** What HA refuses in a child device: hardware fields, a parent that is itself a child, another config entry or subentry. */
function childDeviceIssues(d: HouseDevice, parent: HouseDevice | undefined, i: number): Issue[] {
  const issues: Issue[] = [];
  for (const field of CHILD_DEVICE_ABSENT_FIELDS) {
    const v = d[field];
    if (v !== null && !(Array.isArray(v) && v.length === 0)) {
      issues.push({ path: ["devices", i, field], message: `a child device has no ${field} (HA 2026.9); remove it, or drop parent_device_id` });
    }
  }
  if (!parent) return issues;
  if (parent.parent_device_id) issues.push({ path: ["devices", i, "parent_device_id"], message: `"${parent.id}" is itself a child device; name a regular device` });
  if (d.config_entry_id !== null && d.config_entry_id !== parent.config_entry_id) {
    issues.push({ path: ["devices", i, "config_entry_id"], message: "a child device belongs to its parent's config entry; leave config_entry_id out" });
  }
  if (d.config_subentry_id !== null && d.config_subentry_id !== parent.config_subentry_id) {
    issues.push({ path: ["devices", i, "config_subentry_id"], message: "a child device belongs to its parent's config subentry; leave config_subentry_id out" });
  }
  return issues;
}

function unique(ids: string[], list: string, field: string, issues: Issue[]): Set<string> {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) issues.push({ path: [list, i, field], message: `duplicate ${field} "${id}"` });
    seen.add(id);
  });
  return seen;
}
