import type { HouseSystemLogEntry } from "../house-schema.js";

/**
 * The demo's system log: problems a real home has, tied to its real
 * entities, devices and integrations, so diagnosis tools have something true
 * to find. `nowMs` anchors first/last seen.
 */
export function demoSystemLog(nowMs: number): HouseSystemLogEntry[] {
  const at = (minutesAgo: number) => Math.round(nowMs / 1000 - minutesAgo * 60) + 0.123;
  return [
    {
      name: "homeassistant.components.zha.core.cluster_handlers",
      message: [
        "[0x5E21:1:0x0006]: async_initialize: all attempts have failed: [DeliveryError('Failed to send request: APS ACK timeout (switch.garden_fountain_pump, IKEA of Sweden TRADFRI control outlet)')]",
      ],
      level: "WARNING", source: ["components/zha/core/cluster_handlers/__init__.py", 532], timestamp: at(7), first_occurred: at(22 * 60), count: 37, exception: "",
    },
    {
      name: "homeassistant.components.zha",
      message: ["Device Garden Fountain Pump (IKEA of Sweden TRADFRI control outlet, 0x5E21) became unavailable: no response for 7200 s"],
      level: "ERROR", source: ["components/zha/entity.py", 291], timestamp: at(12), first_occurred: at(21 * 60), count: 14, exception: "",
    },
    {
      name: "homeassistant.components.ecobee",
      message: ["Error refreshing ecobee tokens: invalid_grant. Re-authenticate the ecobee integration (Settings > Devices & services > ecobee)"],
      level: "ERROR", source: ["components/ecobee/__init__.py", 92], timestamp: at(41), first_occurred: at(6 * 60), count: 6,
      exception: "Traceback (most recent call last):\n  File \"/usr/src/homeassistant/homeassistant/components/ecobee/__init__.py\", line 88, in refresh\n    await self.ecobee.refresh_tokens()\npyecobee.errors.ExpiredTokenError: ecobee refresh token rejected (invalid_grant)\n",
    },
    {
      name: "homeassistant.helpers.template",
      message: ["Template variable error: 'None' has no attribute 'state' when rendering '{{ states.cover.garage_door.state | title }}' for sensor.garage_door_status"],
      level: "ERROR", source: ["helpers/template.py", 2748], timestamp: at(3), first_occurred: at(23 * 60), count: 288, exception: "",
    },
    {
      name: "homeassistant.components.sonos",
      message: ["Subscription to 192.168.1.64 (Kitchen Sonos) failed: [Errno 113] Host is unreachable, falling back to polling"],
      level: "WARNING", source: ["components/sonos/speaker.py", 402], timestamp: at(95), first_occurred: at(95), count: 1, exception: "",
    },
    {
      name: "homeassistant.components.shelly.coordinator",
      message: ["Error fetching Garage Door Opener data: Timeout connecting to 192.168.1.87"],
      level: "ERROR", source: ["components/shelly/coordinator.py", 434], timestamp: at(180), first_occurred: at(19 * 60), count: 9, exception: "",
    },
    {
      name: "homeassistant.components.recorder.core",
      message: ["The recorder backlog queue reached the maximum size of 65000 events; consider excluding sensor.p1_meter_power_phase_1 and sensor.p1_meter_power_phase_2 from the recorder"],
      level: "WARNING", source: ["components/recorder/core.py", 1120], timestamp: at(600), first_occurred: at(600), count: 1, exception: "",
    },
    {
      name: "homeassistant.components.zha.core.gateway",
      message: ["Zigbee channel 15 utilization is 78%! If you are having problems joining new devices, are missing sensor updates or have issues keeping devices joined, ensure your coordinator is away from interference sources"],
      level: "WARNING", source: ["components/zha/core/gateway.py", 211], timestamp: at(23 * 60), first_occurred: at(23 * 60), count: 1, exception: "",
    },
  ];
}
