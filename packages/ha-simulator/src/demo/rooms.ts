import type { RoomSpec } from "./spec.js";

/** Where everything is: two floors and the outdoors, room by room. */

export const FLOORS = [
  { floor_id: "ground_floor", name: "Ground Floor", level: 0, icon: "mdi:home-floor-0", aliases: ["downstairs", "ground level"] },
  { floor_id: "first_floor", name: "First Floor", level: 1, icon: "mdi:home-floor-1", aliases: ["upstairs"] },
  { floor_id: "outdoors", name: "Outdoors", level: null, icon: "mdi:tree", aliases: ["outside", "garden"] },
];

export const LABELS = [
  { label_id: "security", name: "Security", icon: "mdi:shield-home", color: "red", description: "Locks, cameras, door and window contacts, smoke and leak sensors" },
  { label_id: "energy", name: "Energy", icon: "mdi:lightning-bolt", color: "amber", description: "Metering, solar and large consumers" },
  { label_id: "climate", name: "Climate", icon: "mdi:thermometer", color: "light-blue", description: "Heating and room climate" },
  { label_id: "lighting", name: "Lighting", icon: "mdi:lightbulb-group", color: "yellow", description: null },
  { label_id: "kids", name: "Kids", icon: "mdi:teddy-bear", color: "pink", description: "Things in or for the children's rooms" },
  { label_id: "outdoor", name: "Outdoor", icon: "mdi:pine-tree", color: "green", description: null },
  { label_id: "critical", name: "Critical", icon: "mdi:alert-decagram", color: "deep-orange", description: "Notify immediately when these misbehave" },
];

export const ROOMS: RoomSpec[] = [
  {
    id: "living_room", name: "Living Room", floor: "ground_floor", aliases: ["lounge", "sitting room", "family room"], icon: "mdi:sofa",
    devices: [
      { model: "hue_color", name: "Floor Lamp" },
      { model: "hue_ambiance", name: "Ceiling" },
      { model: "hue_lightstrip", name: "TV Backlight" },
      { model: "aqara_climate", name: "Climate Sensor", prefix: "living_room" },
      { model: "sonos_one", name: "Sonos", prefix: "living_room_sonos" },
      { model: "chromecast", name: "TV", nameByUser: "Living Room TV" },
      { model: "shelly_2pm_cover", name: "Shutter Left" },
      { model: "shelly_2pm_cover", name: "Shutter Right" },
      { model: "aqara_window", name: "Window" },
      { model: "ecobee", name: "Thermostat" },
      { model: "ikea_purifier", name: "Air Purifier" },
    ],
  },
  {
    id: "kitchen", name: "Kitchen", floor: "ground_floor", aliases: ["cooking area"], icon: "mdi:stove",
    devices: [
      { model: "hue_ambiance", name: "Ceiling" },
      { model: "hue_lightstrip", name: "Worktop Lights" },
      { model: "ikea_bulb", name: "Island Pendant" },
      { model: "aqara_climate", name: "Climate Sensor", prefix: "kitchen" },
      { model: "hue_motion", name: "Motion Sensor" },
      { model: "shelly_plug", name: "Coffee Machine" },
      { model: "shelly_plug", name: "Dishwasher" },
      { model: "shelly_1pm", name: "Extractor Fan" },
      { model: "aqara_leak", name: "Sink Leak Sensor" },
      { model: "heiman_smoke", name: "Smoke Detector" },
      { model: "sonos_one", name: "Sonos", prefix: "kitchen_sonos" },
      { model: "aqara_window", name: "Window" },
    ],
  },
  {
    id: "dining_room", name: "Dining Room", floor: "ground_floor", aliases: ["dining area"], icon: "mdi:silverware-fork-knife",
    devices: [
      { model: "hue_ambiance", name: "Table Pendant" },
      { model: "hue_color", name: "Cabinet Lights" },
      { model: "aqara_climate", name: "Climate Sensor", prefix: "dining_room" },
    ],
  },
  {
    id: "hallway", name: "Hallway", floor: "ground_floor", aliases: ["entrance", "entrance hall", "front hall"], icon: "mdi:door",
    devices: [
      { model: "hue_ambiance", name: "Ceiling" },
      { model: "aqara_motion", name: "Motion Sensor" },
      { model: "nuki_lock", name: "Front Door Lock", prefix: "front_door" },
      { model: "aqara_door", name: "Front Door Contact", prefix: "front_door_contact" },
      { model: "heiman_smoke", name: "Smoke Detector" },
    ],
  },
  {
    id: "office", name: "Office", floor: "ground_floor", aliases: ["study", "home office"], icon: "mdi:desk",
    devices: [
      { model: "hue_ambiance", name: "Desk Lamp" },
      { model: "ikea_bulb", name: "Ceiling" },
      { model: "aqara_climate", name: "Climate Sensor", prefix: "office" },
      { model: "shelly_plug", name: "Desk Power" },
      { model: "aqara_window", name: "Window" },
      { model: "sonoff_dongle", name: "Zigbee Coordinator", prefix: "zigbee_coordinator" },
      { model: "hue_bridge", name: "Hue Bridge", prefix: "hue_bridge" },
    ],
  },
  {
    id: "laundry_room", name: "Laundry Room", floor: "ground_floor", aliases: ["utility room"], icon: "mdi:washing-machine",
    devices: [
      { model: "bosch_washer", name: "Washing Machine", prefix: "washing_machine" },
      { model: "shelly_plug", name: "Dryer Plug", prefix: "dryer" },
      { model: "aqara_leak", name: "Leak Sensor" },
      { model: "ikea_bulb", name: "Ceiling" },
      { model: "homewizard_p1", name: "P1 Meter", prefix: "p1_meter" },
      { model: "homewizard_water", name: "Water Meter", prefix: "water_meter" },
      { model: "esphome_heat_pump", name: "Heat Pump", prefix: "heat_pump" },
    ],
  },
  {
    id: "guest_toilet", name: "Guest Toilet", floor: "ground_floor", aliases: ["downstairs toilet", "wc"], icon: "mdi:toilet",
    devices: [
      { model: "ikea_bulb", name: "Light", prefix: "guest_toilet" },
      { model: "aqara_motion", name: "Motion Sensor" },
    ],
  },
  {
    id: "garage", name: "Garage", floor: "ground_floor", icon: "mdi:garage",
    devices: [
      { model: "shelly_1pm", name: "Door Opener", prefix: "garage_door_opener" },
      { model: "aqara_door", name: "Door Contact", prefix: "garage_door_contact" },
      { model: "sonoff_basic", name: "Ceiling Light Switch", prefix: "garage_light" },
      { model: "roborock", name: "Robot Vacuum", prefix: "robot_vacuum", nameByUser: "Robbie" },
      { model: "solaredge", name: "Solar Inverter", prefix: "solar" },
      { model: "homewizard_battery", name: "Home Battery", prefix: "home_battery" },
    ],
  },
  {
    id: "master_bedroom", name: "Master Bedroom", floor: "first_floor", aliases: ["main bedroom", "our bedroom"], icon: "mdi:bed-king",
    devices: [
      { model: "hue_ambiance", name: "Ceiling" },
      { model: "hue_color", name: "Bedside Left" },
      { model: "hue_color", name: "Bedside Right" },
      { model: "aqara_climate", name: "Climate Sensor", prefix: "master_bedroom" },
      { model: "shelly_2pm_cover", name: "Blinds" },
      { model: "nest_thermostat", name: "Upstairs Thermostat", prefix: "upstairs_thermostat" },
      { model: "ikea_purifier", name: "Air Purifier" },
      { model: "aqara_window", name: "Window" },
    ],
  },
  {
    id: "emma_room", name: "Emma's Room", floor: "first_floor", aliases: ["emma's bedroom", "kids room"], icon: "mdi:teddy-bear",
    labels: ["kids"],
    devices: [
      { model: "hue_color", name: "Ceiling", labels: ["kids"] },
      { model: "ikea_bulb", name: "Night Light", labels: ["kids"] },
      { model: "aqara_climate", name: "Climate Sensor", prefix: "emma_room" },
      { model: "aqara_window", name: "Window" },
    ],
  },
  {
    id: "noah_room", name: "Noah's Room", floor: "first_floor", aliases: ["noah's bedroom"], icon: "mdi:rocket-launch",
    labels: ["kids"],
    devices: [
      { model: "hue_ambiance", name: "Ceiling", labels: ["kids"] },
      { model: "hue_lightstrip", name: "Desk Strip", labels: ["kids"] },
      { model: "aqara_climate", name: "Climate Sensor", prefix: "noah_room" },
      { model: "sonos_one", name: "Speaker", prefix: "noah_room_speaker" },
    ],
  },
  {
    id: "bathroom", name: "Bathroom", floor: "first_floor", aliases: ["family bathroom"], icon: "mdi:shower",
    devices: [
      { model: "hue_ambiance", name: "Ceiling" },
      { model: "hue_ambiance", name: "Mirror Light" },
      { model: "aqara_climate", name: "Climate Sensor", prefix: "bathroom" },
      { model: "shelly_1pm", name: "Towel Radiator" },
      { model: "aqara_leak", name: "Leak Sensor" },
      { model: "aqara_motion", name: "Motion Sensor" },
    ],
  },
  {
    id: "landing", name: "Landing", floor: "first_floor", aliases: ["upstairs hallway", "upstairs hall"], icon: "mdi:stairs",
    devices: [
      { model: "hue_ambiance", name: "Ceiling" },
      { model: "hue_motion", name: "Motion Sensor" },
      { model: "heiman_smoke", name: "Smoke Detector" },
    ],
  },
  {
    id: "guest_room", name: "Guest Room", floor: "first_floor", aliases: ["spare room"], icon: "mdi:bed",
    devices: [
      { model: "ikea_bulb", name: "Ceiling" },
      { model: "ikea_outlet", name: "Heater Plug", prefix: "guest_room_heater", disabled: true },
      { model: "aqara_climate", name: "Climate Sensor", prefix: "guest_room" },
    ],
  },
  {
    id: "garden", name: "Garden", floor: "outdoors", aliases: ["backyard", "back garden"], icon: "mdi:flower", labels: ["outdoor"],
    devices: [
      { model: "hue_color", name: "Path Lights" },
      { model: "ikea_outlet", name: "Fountain Pump", prefix: "garden_fountain_pump", labels: ["outdoor"] },
      { model: "aqara_climate", name: "Shed Sensor", prefix: "garden_shed" },
      { model: "gardena_valve", name: "Sprinkler Valve", prefix: "garden_sprinkler" },
      { model: "husqvarna", name: "Lawn Mower", prefix: "lawn_mower", nameByUser: "Mowgli" },
      { model: "unifi_camera", name: "Camera", prefix: "garden_camera" },
    ],
  },
  {
    id: "driveway", name: "Driveway", floor: "outdoors", aliases: ["front yard", "front of the house"], icon: "mdi:car", labels: ["outdoor"],
    devices: [
      { model: "unifi_camera", name: "Camera", prefix: "driveway_camera" },
      { model: "hue_ambiance", name: "Porch Light", prefix: "porch_light" },
      { model: "nest_doorbell", name: "Front Door Doorbell", prefix: "front_door_doorbell" },
    ],
  },
  {
    id: "terrace", name: "Terrace", floor: "outdoors", aliases: ["patio", "deck"], icon: "mdi:table-chair", labels: ["outdoor"],
    devices: [
      { model: "hue_lightstrip", name: "Festoon Lights" },
      { model: "shelly_1pm", name: "Patio Heater" },
      { model: "aqara_climate", name: "Outdoor Sensor", prefix: "outdoor" },
    ],
  },
];
