/**
 * The Supervisor's view of the machine, as `/network/info` and `/core/info`
 * answer it (supervisor/api/network.py, supervisor/api/homeassistant.py).
 * Add-ons with `hassio_api` and the default role may read every `/…/info`
 * (supervisor/api/middleware/security.py, ADDONS_ROLE_ACCESS).
 */

/** `GET /network/info`: one wired interface, primary, with the host's address on the home network. */
export function networkInfo(hostAddress: string): Record<string, unknown> {
  const prefix = hostAddress.startsWith("127.") ? 8 : 24;
  return {
    interfaces: [
      {
        interface: "end0",
        type: "ethernet",
        enabled: true,
        connected: true,
        primary: true,
        mac: "02:42:ac:11:00:02",
        ipv4: { method: "auto", address: [`${hostAddress}/${prefix}`], nameservers: [], gateway: null, ready: true },
        ipv6: { method: "auto", address: [], nameservers: [], gateway: null, ready: true },
        wifi: null,
        vlan: null,
      },
    ],
    docker: { interface: "hassio", address: "172.30.32.0/23", gateway: "172.30.32.1", dns: "172.30.32.3" },
    host_internet: true,
    supervisor_internet: true,
  };
}

/** `GET /core/info`: Home Assistant's container; `port` and `ssl` are what the person's browser uses on the host. */
export function coreInfo(o: { haVersion: string; port: number; ssl: boolean }): Record<string, unknown> {
  return {
    version: o.haVersion,
    version_latest: o.haVersion,
    update_available: false,
    machine: "qemux86-64",
    ip_address: "172.30.32.1",
    arch: "amd64",
    image: "ghcr.io/home-assistant/qemux86-64-homeassistant",
    boot: true,
    port: o.port,
    ssl: o.ssl,
    watchdog: true,
    audio_input: null,
    audio_output: null,
    backups_exclude_database: false,
  };
}
