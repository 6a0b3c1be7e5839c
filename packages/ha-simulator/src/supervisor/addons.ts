import { randomBytes } from "node:crypto";

/** An installed add-on as the simulated Supervisor knows it. */
export interface SimAddon {
  slug: string;
  name: string;
  /** Its Supervisor token (the container's SUPERVISOR_TOKEN): 64 hex characters, as the Supervisor makes them. */
  token: string;
  /** Where other containers reach it; the Supervisor derives it from the slug (`_` becomes `-`). */
  hostname: string;
  /** The services it may announce (`discovery` in its config.yaml). */
  discovery: string[];
  ingressPort: number;
  /** Host ports for its container ports (`ports` in config.yaml, as the person changed them); null when a port is not published. */
  network: Record<string, number | null>;
  /** `hassio_api` in its config.yaml: whether it may read the Supervisor's `/…/info` endpoints beyond its own. */
  hassioApi: boolean;
}

/** An add-on with the Supervisor's defaults for what is not given. */
export function simAddon(o: Partial<SimAddon> & { slug: string }): SimAddon {
  return {
    name: o.slug,
    token: randomBytes(32).toString("hex"),
    hostname: o.slug.replaceAll("_", "-"),
    discovery: [],
    ingressPort: 8099,
    network: { "8808/tcp": 8808 },
    hassioApi: true,
    ...o,
  };
}

/** `GET /addons/self/info`: the fields an add-on reads about itself, with the Supervisor's names. */
export function addonInfo(addon: SimAddon, ingressToken: string): Record<string, unknown> {
  return {
    name: addon.name,
    slug: addon.slug,
    hostname: addon.hostname,
    dns: [`${addon.hostname}.local.hass.io`],
    state: "started",
    version: "0.1.0",
    ip_address: "172.30.33.1",
    homeassistant_api: true,
    hassio_api: addon.hassioApi,
    hassio_role: "default",
    discovery: addon.discovery,
    ingress: true,
    ingress_entry: `/api/hassio_ingress/${ingressToken}`,
    ingress_url: `/api/hassio_ingress/${ingressToken}/`,
    ingress_port: addon.ingressPort,
    ingress_panel: true,
    network: addon.network,
    options: {},
  };
}
