import {
  battery, binary, deviceTemperature, energy, firmware, humidity, identifyButton, illuminance, light, lqi, plugSwitch, power,
  pressure, restartButton, rssi, temperature,
} from "./entity-kits.js";
import { around, oneOf, type DeviceModel } from "./spec.js";

/** The device models the demo house is built from, by key. Real manufacturers and model ids. */
export const MODELS = new Map<string, DeviceModel>(Object.entries({
  hue_ambiance: {
    integration: "hue", manufacturer: "Signify Netherlands B.V.", model: "Hue white ambiance bulb", modelId: "LTA009",
    swVersion: "1.116.3", connection: "hue", entities: [light({ minK: 2202, maxK: 6535 })],
  },
  hue_color: {
    integration: "hue", manufacturer: "Signify Netherlands B.V.", model: "Hue color lamp", modelId: "LCA006", swVersion: "1.116.3",
    connection: "hue", entities: [light({ color: true, effects: true, minK: 2000, maxK: 6535 })],
  },
  hue_lightstrip: {
    integration: "hue", manufacturer: "Signify Netherlands B.V.", model: "Hue lightstrip plus", modelId: "LCL001", swVersion: "1.104.2",
    connection: "hue", entities: [light({ color: true, effects: true, onChance: 0.2 })],
  },
  hue_motion: {
    integration: "hue", manufacturer: "Signify Netherlands B.V.", model: "Hue motion sensor", modelId: "SML003", swVersion: "2.53.6",
    connection: "hue",
    entities: [
      binary("motion", "Motion", "motion", 0.15), temperature, illuminance, battery,
      { domain: "switch", key: "motion_sensor_enabled", name: "Motion sensor enabled", state: "on", category: "config" },
    ],
  },
  ikea_bulb: {
    integration: "zha", manufacturer: "IKEA of Sweden", model: "TRADFRI bulb E27 WS globe 806lm", modelId: "LED1836G9",
    swVersion: "0x23087631", connection: "zigbee", entities: [light({ minK: 2202, maxK: 4000 }), rssi, lqi],
  },
  ikea_outlet: {
    integration: "zha", manufacturer: "IKEA of Sweden", model: "TRADFRI control outlet", modelId: "E1603", swVersion: "0x23087631",
    connection: "zigbee", entities: [plugSwitch, rssi, lqi], labels: ["energy"],
  },
  ikea_purifier: {
    integration: "zha", manufacturer: "IKEA of Sweden", model: "STARKVIND Air purifier", modelId: "E2007", swVersion: "0x00011001",
    connection: "zigbee",
    entities: [
      {
        domain: "fan", name: null, state: oneOf("on", "off"),
        attributes: (s) => ({
          preset_modes: ["auto"], preset_mode: s === "on" ? "auto" : null, percentage: s === "on" ? 40 : 0, percentage_step: 20,
          supported_features: 57,
        }),
      },
      { domain: "sensor", key: "pm25", name: "PM2.5", state: around(7, 5, 0), deviceClass: "pm25", attributes: { state_class: "measurement", unit_of_measurement: "µg/m³" } },
      { domain: "sensor", key: "filter_run_time", name: "Filter run time", state: around(2900, 900, 0), deviceClass: "duration", category: "diagnostic", attributes: { state_class: "total_increasing", unit_of_measurement: "min" } },
      { domain: "switch", key: "child_lock", name: "Child lock", state: "off", category: "config" },
      { domain: "select", key: "led_brightness", name: "LED brightness", state: "low", category: "config", attributes: { options: ["off", "low", "high"] } },
      rssi, lqi,
    ],
  },
  aqara_climate: {
    integration: "zha", manufacturer: "LUMI", model: "Aqara temperature and humidity sensor", modelId: "lumi.weather",
    swVersion: "0x00000005", connection: "zigbee", entities: [temperature, humidity, pressure, battery, rssi, lqi], labels: ["climate"],
  },
  aqara_door: {
    integration: "zha", manufacturer: "LUMI", model: "Aqara door and window sensor", modelId: "lumi.sensor_magnet.aq2",
    swVersion: "0x00000005", connection: "zigbee", entities: [binary("opening", null, "door", 0.1), battery, rssi, lqi],
    labels: ["security"],
  },
  aqara_window: {
    integration: "zha", manufacturer: "LUMI", model: "Aqara door and window sensor", modelId: "lumi.sensor_magnet.aq2",
    swVersion: "0x00000005", connection: "zigbee", entities: [binary("opening", null, "window", 0.15), battery, rssi, lqi],
    labels: ["security"],
  },
  aqara_leak: {
    integration: "zha", manufacturer: "LUMI", model: "Aqara water leak sensor", modelId: "lumi.sensor_wleak.aq1",
    swVersion: "0x00000005", connection: "zigbee", entities: [binary("moisture", null, "moisture", 0), battery, rssi, lqi],
    labels: ["security"],
  },
  aqara_motion: {
    integration: "zha", manufacturer: "LUMI", model: "Aqara motion sensor P1", modelId: "lumi.motion.ac02", swVersion: "0x0000001e",
    connection: "zigbee", entities: [binary("occupancy", null, "occupancy", 0.2), illuminance, battery, deviceTemperature, rssi, lqi],
  },
  heiman_smoke: {
    integration: "zha", manufacturer: "HEIMAN", model: "Smart smoke sensor", modelId: "SmokeSensor-EF-3.0", swVersion: "0x0000000f",
    connection: "zigbee", entities: [binary("smoke", null, "smoke", 0), battery, identifyButton, rssi, lqi], labels: ["security"],
  },
  sonoff_dongle: {
    integration: "zha", manufacturer: "ITead", model: "Sonoff Zigbee 3.0 USB Dongle Plus", modelId: "ZBDongle-P",
    swVersion: "0x20240710", connection: "none", entities: [],
  },
  hue_bridge: {
    integration: "hue", manufacturer: "Signify Netherlands B.V.", model: "Hue Bridge", modelId: "BSB002", swVersion: "1.68.1968096020",
    connection: "mac", configurationUrl: true, entities: [firmware("1.68.1968096020", "1.70.1970086000")],
  },
  shelly_plug: {
    integration: "shelly", manufacturer: "Shelly", model: "Shelly Plus Plug S", modelId: "SNPL-00112EU", swVersion: "1.4.4",
    connection: "mac", configurationUrl: true,
    entities: [plugSwitch, power, energy, deviceTemperature, restartButton, firmware("1.4.4")], labels: ["energy"],
  },
  shelly_1pm: {
    integration: "shelly", manufacturer: "Shelly", model: "Shelly Plus 1PM", modelId: "SNSW-001P16EU", swVersion: "1.3.3",
    connection: "mac", configurationUrl: true,
    entities: [{ domain: "switch", name: null, state: oneOf("on", "off") }, power, energy, deviceTemperature, restartButton, firmware("1.3.3", "1.4.4")],
  },
  shelly_2pm_cover: {
    integration: "shelly", manufacturer: "Shelly", model: "Shelly Plus 2PM", modelId: "SNSW-102P16EU", swVersion: "1.4.4",
    connection: "mac", configurationUrl: true,
    entities: [
      {
        domain: "cover", name: null, deviceClass: "shutter", state: oneOf("open", "closed", "open"),
        attributes: (s, rng) => ({ current_position: s === "closed" ? 0 : rng.pick([100, 100, 60]), supported_features: 15 }),
      },
      power, deviceTemperature, restartButton, firmware("1.4.4"),
    ],
  },
  sonoff_basic: {
    integration: "sonoff", manufacturer: "SONOFF", model: "BASICR2", modelId: "BASICR2", swVersion: "3.6.0", connection: "mac",
    entities: [{ domain: "switch", name: null, state: oneOf("on", "off") }, { ...rssi, disabledBy: undefined }],
  },
  ecobee: {
    integration: "ecobee", manufacturer: "ecobee Inc.", model: "ecobee3 lite Smart Thermostat", modelId: "athenaSmart",
    swVersion: "4.8.7.150", connection: "none", labels: ["climate"],
    entities: [
      {
        domain: "climate", name: null, state: "heat",
        attributes: (_s, rng) => ({
          hvac_modes: ["heat_cool", "heat", "cool", "off"], min_temp: 7, max_temp: 35, target_temp_step: 0.5,
          fan_modes: ["auto", "on"], preset_modes: ["away", "home", "sleep"], current_temperature: Number(around(20.6, 0.8)(rng)),
          temperature: 21, target_temp_high: null, target_temp_low: null, current_humidity: 44, fan_mode: "auto",
          hvac_action: "heating", preset_mode: "home", aux_heat: "off", fan: "on", climate_mode: "Home", equipment_running: "heatPump",
          fan_min_on_time: 0, supported_features: 415,
        }),
      },
      { ...temperature, key: "current_temperature", name: "Current temperature" },
      humidity,
      binary("occupancy", "Occupancy", "occupancy", 0.5),
    ],
  },
  nest_thermostat: {
    integration: "nest", manufacturer: "Google Nest", model: "Thermostat", modelId: "Nest Learning Thermostat (3rd gen)",
    swVersion: "6.2-18", connection: "none", labels: ["climate"],
    entities: [
      {
        domain: "climate", name: null, state: "heat",
        attributes: (_s, rng) => ({
          hvac_modes: ["heat", "off"], min_temp: 9, max_temp: 32, current_temperature: Number(around(19.4, 0.8)(rng)), temperature: 19.5,
          hvac_action: "idle", preset_modes: ["none", "eco"], preset_mode: "none", supported_features: 401,
        }),
      },
      temperature, humidity,
    ],
  },
  nest_doorbell: {
    integration: "nest", manufacturer: "Google Nest", model: "Doorbell (battery)", modelId: "GWX3T", swVersion: "1.5-4",
    connection: "none", labels: ["security"],
    entities: [
      {
        domain: "camera", name: null, state: "idle",
        attributes: { access_token: "4c3b0d9f", entity_picture: "/api/camera_proxy/camera.front_door_doorbell?token=4c3b0d9f", frontend_stream_type: "web_rtc", supported_features: 2 },
      },
      { domain: "event", key: "chime", name: "Chime", state: "unknown", deviceClass: "doorbell", attributes: { event_types: ["doorbell_chime"], event_type: null } },
      binary("motion", "Motion", "motion", 0.05),
    ],
  },
  sonos_one: {
    integration: "sonos", manufacturer: "Sonos", model: "One SL", modelId: "S38", swVersion: "16.3", connection: "mac",
    entities: [
      {
        domain: "media_player", name: null, deviceClass: "speaker", state: oneOf("idle", "playing", "paused"),
        attributes: (s) => ({
          group_members: [], volume_level: 0.18, is_volume_muted: false, repeat: "off", shuffle: false,
          ...(s === "playing" ? { media_content_type: "music", media_title: "Blue in Green", media_artist: "Miles Davis", media_album_name: "Kind of Blue" } : {}),
          source_list: ["Jazz Classics", "Morning Radio"], supported_features: 4127295,
        }),
      },
      { domain: "number", key: "bass", name: "Bass", state: "0", category: "config", attributes: { min: -10, max: 10, step: 1, mode: "slider" } },
      { domain: "number", key: "treble", name: "Treble", state: "0", category: "config", attributes: { min: -10, max: 10, step: 1, mode: "slider" } },
      { domain: "switch", key: "crossfade", name: "Crossfade", state: "off", category: "config" },
      { domain: "switch", key: "loudness", name: "Loudness", state: "on", category: "config" },
      { ...rssi, key: "audio_input_format", name: "Audio input format", deviceClass: undefined, state: "No audio", attributes: {} },
    ],
  },
  chromecast: {
    integration: "cast", manufacturer: "Google Inc.", model: "Google TV Streamer", modelId: "Google TV Streamer", swVersion: "1.56.500000",
    connection: "none",
    entities: [{ domain: "media_player", name: null, deviceClass: "tv", state: "off", attributes: { supported_features: 152463 } }],
  },
  nuki_lock: {
    integration: "nuki", manufacturer: "Nuki Home Solutions GmbH", model: "Nuki Smart Lock 4.0 Pro", modelId: "Smart Lock 4.0 Pro",
    swVersion: "4.3.6", connection: "none", labels: ["security"],
    entities: [
      { domain: "lock", name: null, state: "locked", attributes: { battery_critical: false, nuki_id: 531239810, supported_features: 1 } },
      { ...battery, key: "battery" },
      binary("door", "Door", "door", 0),
      binary("battery_critical", "Battery critical", "battery", 0, { category: "diagnostic" }),
    ],
  },
  roborock: {
    integration: "roborock", manufacturer: "Roborock", model: "Roborock S8 Pro Ultra", modelId: "roborock.vacuum.a70",
    swVersion: "02.17.74", connection: "none",
    entities: [
      {
        domain: "vacuum", name: null, state: "docked",
        attributes: { fan_speed_list: ["off", "quiet", "balanced", "turbo", "max"], battery_level: 100, battery_icon: "mdi:battery-charging-100", fan_speed: "balanced", supported_features: 14204 },
      },
      { domain: "sensor", key: "cleaning_area", name: "Cleaning area", state: "41.5", attributes: { state_class: "measurement", unit_of_measurement: "m²" } },
      { domain: "sensor", key: "main_brush_time_left", name: "Main brush time left", state: "212.3", deviceClass: "duration", category: "diagnostic", attributes: { unit_of_measurement: "h" } },
      { domain: "select", key: "mop_intensity", name: "Mop intensity", state: "moderate", category: "config", attributes: { options: ["off", "mild", "moderate", "intense"] } },
      binary("mop_attached", "Mop attached", "connectivity", 1, { category: "diagnostic" }),
    ],
  },
  unifi_camera: {
    integration: "unifiprotect", manufacturer: "Ubiquiti", model: "G4 Bullet", modelId: "UVC G4 Bullet", swVersion: "4.69.55",
    connection: "mac", configurationUrl: true, labels: ["security"],
    entities: [
      {
        domain: "camera", name: "High resolution channel", key: "high", state: "streaming",
        attributes: { access_token: "a9f31c0e", entity_picture: "/api/camera_proxy/camera.driveway_camera_high?token=a9f31c0e", frontend_stream_type: "hls", supported_features: 2 },
      },
      binary("motion", "Motion", "motion", 0.1),
      binary("person_detected", "Person detected", "occupancy", 0.05),
      { domain: "switch", key: "privacy_mode", name: "Privacy mode", state: "off", category: "config" },
      { domain: "sensor", key: "uptime", name: "Uptime", state: "2026-11-02T03:12:40+00:00", deviceClass: "timestamp", category: "diagnostic", disabledBy: "integration" },
    ],
  },
  homewizard_p1: {
    integration: "homewizard", manufacturer: "HomeWizard", model: "Wi-Fi P1 Meter", modelId: "HWE-P1", swVersion: "6.00",
    connection: "mac", labels: ["energy"],
    entities: [
      { ...power, key: "power", name: "Power" },
      { ...power, key: "power_phase_1", name: "Power phase 1", hiddenBy: "user" },
      { ...power, key: "power_phase_2", name: "Power phase 2", hiddenBy: "user" },
      { ...energy, key: "energy_import", name: "Energy import", state: around(14210, 20, 3) },
      { ...energy, key: "energy_export", name: "Energy export", state: around(3120, 20, 3) },
      { domain: "sensor", key: "total_gas", name: "Total gas", state: around(4412, 5, 3), deviceClass: "gas", attributes: { state_class: "total_increasing", unit_of_measurement: "m³" }, labels: ["energy"] },
      { domain: "sensor", key: "wifi_strength", name: "Wi-Fi strength", state: around(74, 8, 0), category: "diagnostic", attributes: { state_class: "measurement", unit_of_measurement: "%" } },
    ],
  },
  solaredge: {
    integration: "solaredge", manufacturer: "SolarEdge", model: "SE5000H", modelId: "SE5000H-RW000BNN4", swVersion: "4.18.35",
    connection: "none", labels: ["energy"],
    entities: [
      { ...power, key: "current_power", name: "Current power", state: around(1200, 900, 0) },
      { ...energy, key: "energy_today", name: "Energy today", state: around(6.4, 3, 2), attributes: { state_class: "total_increasing", unit_of_measurement: "kWh" } },
      { ...energy, key: "lifetime_energy", name: "Lifetime energy", state: around(18450, 40, 1) },
    ],
  },
  bosch_washer: {
    integration: "home_connect", manufacturer: "BOSCH", model: "Series 6 washing machine", modelId: "WGG244A9GB", swVersion: "2.8.1",
    connection: "none",
    entities: [
      { domain: "sensor", key: "operation_state", name: "Operation state", state: "ready", deviceClass: "enum", attributes: { options: ["inactive", "ready", "delayedstart", "run", "pause", "actionrequired", "finished", "error", "aborting"] } },
      binary("door", "Door", "door", 0),
      { domain: "switch", key: "power", name: "Power", state: "on" },
      { domain: "sensor", key: "program_progress", name: "Program progress", state: "unknown", attributes: { unit_of_measurement: "%" } },
    ],
  },
  husqvarna: {
    integration: "husqvarna_automower", manufacturer: "Husqvarna", model: "Automower 430X NERA", modelId: "430X NERA", swVersion: "1.4.2",
    connection: "none",
    entities: [
      { domain: "lawn_mower", name: null, state: "docked", attributes: { supported_features: 7 } },
      { ...battery, category: undefined },
      { domain: "sensor", key: "cutting_blade_usage_time", name: "Cutting blade usage time", state: "31.2", deviceClass: "duration", category: "diagnostic", attributes: { unit_of_measurement: "h" } },
    ],
  },
  gardena_valve: {
    integration: "zha", manufacturer: "GARDENA", model: "Water Control", modelId: "01880-20", swVersion: "0x00010205",
    connection: "zigbee",
    entities: [{ domain: "valve", name: null, deviceClass: "water", state: "closed", attributes: { supported_features: 3 } }, battery, rssi, lqi],
  },
  phone: {
    integration: "mobile_app", manufacturer: "Google", model: "Pixel 9", modelId: "Pixel 9", swVersion: "15", connection: "none",
    entities: [
      { domain: "device_tracker", name: null, state: "home", attributes: { source_type: "gps", latitude: 52.37312, longitude: 4.89012, gps_accuracy: 12, altitude: 4, battery_level: 64 } },
      { ...battery, key: "battery_level", name: "Battery level", category: undefined },
      { domain: "sensor", key: "battery_state", name: "Battery state", state: "discharging", category: undefined },
    ],
  },
}));
