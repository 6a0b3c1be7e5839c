import type { Rng } from "../random.js";

/**
 * The vocabulary the demo house is written in: device models that expand to
 * entities, and rooms that place devices. Keeping the house as data in this
 * shape (rather than as thousands of lines of JSON) makes it easy to extend.
 */

export type Attributes = Record<string, unknown>;

export interface EntitySpec {
  domain: string;
  /** Object-id suffix and unique-id suffix; left out for a device's main entity. */
  key?: string;
  /** The entity's own name (HA's `original_name`); null for the main entity, which takes the device's name. */
  name?: string | null;
  state: string | ((rng: Rng) => string);
  attributes?: Attributes | ((state: string, rng: Rng) => Attributes);
  deviceClass?: string;
  category?: "config" | "diagnostic";
  disabledBy?: "integration" | "user";
  hiddenBy?: "integration" | "user";
  translationKey?: string;
  icon?: string;
  labels?: string[];
}

export interface DeviceModel {
  integration: string;
  manufacturer: string;
  model: string;
  modelId: string;
  swVersion: string;
  hwVersion?: string;
  /** How the device is connected: zigbee and hue devices hang off their hub. */
  connection: "zigbee" | "hue" | "mac" | "none";
  entities: EntitySpec[];
  labels?: string[];
  /** HA shows a link to the device's own web page. */
  configurationUrl?: boolean;
}

export interface DevicePlacement {
  model: string;
  /** Device name after the room name, e.g. "Ceiling" → "Kitchen Ceiling". */
  name: string;
  /** Overrides the object-id prefix, e.g. "kitchen" for sensor.kitchen_temperature. */
  prefix?: string;
  /** A user-given device name (HA's `name_by_user`). */
  nameByUser?: string;
  disabled?: boolean;
  labels?: string[];
}

export interface RoomSpec {
  id: string;
  name: string;
  floor: string;
  aliases?: string[];
  icon: string;
  labels?: string[];
  devices: DevicePlacement[];
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** A reading around `base` with plausible spread and precision. */
export const around =
  (base: number, spread: number, decimals = 1) =>
  (rng: Rng): string =>
    (base + (rng.next() * 2 - 1) * spread).toFixed(decimals);

export const oneOf =
  (...values: string[]) =>
  (rng: Rng): string =>
    rng.pick(values);
