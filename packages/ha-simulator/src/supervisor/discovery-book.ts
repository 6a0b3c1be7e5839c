import { randomUUID } from "node:crypto";

/** One discovery message, as the Supervisor keeps it: which add-on offers which service, with what config. */
export interface DiscoveryEntry {
  uuid: string;
  addon: string;
  service: string;
  config: Record<string, unknown>;
}

/** A request the discovery book saw, in order, so a test can read what the add-on did. */
export interface DiscoveryRequest {
  method: "POST" | "DELETE";
  addon: string;
  /** POST: the service; DELETE: the uuid asked for. */
  target: string;
  status: number;
}

/**
 * The Supervisor's discovery messages. Like the Supervisor, a message is
 * keyed by add-on and service: a repeated post from the same add-on for the
 * same service keeps its uuid and takes the new config, so Home Assistant
 * sees the same server, not a new one.
 */
export class DiscoveryBook {
  private readonly entries = new Map<string, DiscoveryEntry>();
  readonly requests: DiscoveryRequest[] = [];

  post(o: { addon: string; service: string; config: Record<string, unknown> }): DiscoveryEntry {
    const existing = [...this.entries.values()].find((e) => e.addon === o.addon && e.service === o.service);
    if (existing) {
      existing.config = o.config;
      return existing;
    }
    // The Supervisor's uuids are uuid4 in hex, without dashes.
    const entry = { uuid: randomUUID().replaceAll("-", ""), addon: o.addon, service: o.service, config: o.config };
    this.entries.set(entry.uuid, entry);
    return entry;
  }

  get(uuid: string): DiscoveryEntry | undefined {
    return this.entries.get(uuid);
  }

  remove(uuid: string): void {
    this.entries.delete(uuid);
  }

  list(): DiscoveryEntry[] {
    return [...this.entries.values()].map((e) => ({ ...e, config: { ...e.config } }));
  }
}
