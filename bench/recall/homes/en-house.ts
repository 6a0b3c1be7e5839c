import type { HomeSpec, ThingSpec } from "../home-spec.js";
import * as k from "./kit.js";

/** A motion sensor as Zigbee pairs it: motion, battery level, a low-battery flag and light level. */
function motionSensor(id: string, name: string, area: string, on: boolean, level: number): ThingSpec {
  return {
    device: name,
    area,
    maker: "Aqara",
    model: "RTCGQ11LM",
    entities: [
      k.bin(id, name, on ? "on" : "off", "motion"),
      k.battery(`${id}_battery`, `${name} Battery`, level),
      k.bin(`${id}_battery_low`, `${name} Battery Low`, level < 20 ? "on" : "off", "battery"),
      k.sensor(`${id}_illuminance`, `${name} Illuminance`, 40, "illuminance", "lx"),
    ],
  };
}

function climateSensor(id: string, name: string, area: string, t: number, h: number): ThingSpec {
  return { device: `${name} Sensor`, area, maker: "Aqara", entities: [k.temp(`${id}_temperature`, `${name} Temperature`, t), k.humidity(`${id}_humidity`, `${name} Humidity`, h), k.battery(`${id}_sensor_battery`, `${name} Sensor Battery`, 77, { secondary: "diagnostic" })] };
}

function contact(id: string, name: string, area: string, cls: "door" | "window" | "garage_door", open: boolean): ThingSpec {
  return { device: name, area, maker: "Aqara", entities: [k.bin(id, name, open ? "on" : "off", cls), k.battery(`${id}_battery`, `${name} Battery`, 66, { secondary: "diagnostic" })] };
}

/** A family house in English: three floors and a garden, many speakers, irrigation, two vacuums. */
export const enHouse: HomeSpec = {
  id: "en-house",
  language: "en",
  title: "Oak Lane House",
  floors: [
    { id: "ground", name: "Ground Floor", level: 0, aliases: ["downstairs"] },
    { id: "first", name: "First Floor", level: 1, aliases: ["upstairs"] },
    { id: "basement", name: "Basement", level: -1 },
    { id: "outside", name: "Outside", level: 0, aliases: ["garden", "outdoors"] },
  ],
  areas: [
    { id: "living_room", name: "Living Room", floor: "ground", aliases: ["Family Room"] },
    { id: "dining_room", name: "Dining Room", floor: "ground" },
    { id: "kitchen", name: "Kitchen", floor: "ground" },
    { id: "hall", name: "Hall", floor: "ground", aliases: ["Entrance", "Foyer"] },
    { id: "guest_wc", name: "Guest WC", floor: "ground", aliases: ["Downstairs Toilet"] },
    { id: "garage", name: "Garage", floor: "ground" },
    { id: "utility_room", name: "Utility Room", floor: "ground", aliases: ["Laundry"] },
    { id: "office", name: "Office", floor: "ground", aliases: ["Study"] },
    { id: "master_bedroom", name: "Master Bedroom", floor: "first", aliases: ["Main Bedroom"] },
    { id: "emma_room", name: "Emma's Room", floor: "first" },
    { id: "noah_room", name: "Noah's Room", floor: "first" },
    { id: "bathroom", name: "Bathroom", floor: "first" },
    { id: "landing", name: "Landing", floor: "first" },
    { id: "gym", name: "Gym", floor: "basement" },
    { id: "cellar", name: "Wine Cellar", floor: "basement" },
    { id: "front_yard", name: "Front Yard", floor: "outside" },
    { id: "back_garden", name: "Back Garden", floor: "outside", aliases: ["Backyard"] },
    { id: "patio", name: "Patio", floor: "outside", aliases: ["Terrace"] },
    { id: "driveway", name: "Driveway", floor: "outside" },
  ],
  things: [
    // Living room
    { device: "Living Room Ceiling", area: "living_room", maker: "Signify", entities: [k.light("living_room_ceiling", "Living Room Ceiling", "on")] },
    { device: "Reading Lamp", area: "living_room", maker: "Signify", entities: [k.light("reading_lamp", "Reading Lamp", "on")] },
    { device: "Corner Lamp", area: "living_room", maker: "IKEA", entities: [k.light("corner_lamp", "Corner Lamp", "off")] },
    { device: "Fireplace Lights", area: "living_room", entities: [k.light("fireplace_lights", "Fireplace Lights", "off")] },
    { device: "Living Room TV", area: "living_room", maker: "LG", model: "OLED C3", entities: [k.media("living_room_tv", "Living Room TV", "playing", "tv")] },
    { device: "Soundbar", area: "living_room", maker: "Sonos", model: "Arc", entities: [k.media("soundbar", "Soundbar", "playing", "speaker")] },
    { device: "Living Room Blinds", area: "living_room", maker: "Somfy", entities: [k.cover("living_room_blinds", "Living Room Blinds", "open", "blind")] },
    climateSensor("living_room", "Living Room", "living_room", 21.2, 45),
    motionSensor("living_room_motion", "Living Room Motion", "living_room", true, 62),
    contact("living_room_window", "Living Room Window", "living_room", "window", false),
    { device: "Air Purifier", area: "living_room", maker: "IKEA", model: "STARKVIND", entities: [k.fan("air_purifier", "Air Purifier", "on"), k.sensor("air_purifier_pm25", "Air Purifier PM2.5", 7, "pm25", "µg/m³")] },
    // Dining room
    { device: "Dining Table Pendant", area: "dining_room", entities: [k.light("dining_pendant", "Dining Table Pendant", "off")] },
    { device: "Dining Room Speaker", area: "dining_room", maker: "Sonos", model: "One", entities: [k.media("dining_room_speaker", "Dining Room Speaker", "paused", "speaker")] },
    climateSensor("dining_room", "Dining Room", "dining_room", 20.8, 47),
    // Kitchen
    { device: "Kitchen Ceiling", area: "kitchen", entities: [k.light("kitchen_ceiling", "Kitchen Ceiling", "on")] },
    { device: "Island Pendants", area: "kitchen", entities: [k.light("island_pendants", "Island Pendants", "on")] },
    { device: "Worktop Lights", area: "kitchen", entities: [k.light("worktop_lights", "Worktop Lights", "off")] },
    { device: "Kitchen Nest", area: "kitchen", maker: "Google", model: "Nest Audio", entities: [k.media("kitchen_nest", "Kitchen Nest", "playing", "speaker")] },
    { device: "Kitchen Hub", area: "kitchen", maker: "Google", model: "Nest Hub", entities: [k.media("kitchen_hub", "Kitchen Hub", "idle", "speaker")] },
    { device: "Coffee Machine", area: "kitchen", entities: [k.sw("coffee_machine", "Coffee Machine", "off", "outlet"), k.power("coffee_machine_power", "Coffee Machine Power", 0)] },
    { device: "Fridge", area: "kitchen", maker: "Samsung", entities: [k.temp("fridge_temperature", "Fridge Temperature", 4), k.temp("freezer_temperature", "Freezer Temperature", -18), k.bin("fridge_door", "Fridge Door", "off", "door")] },
    { device: "Kitchen Smoke Alarm", area: "kitchen", entities: [k.bin("kitchen_smoke", "Kitchen Smoke Alarm", "off", "smoke"), k.battery("kitchen_smoke_battery", "Kitchen Smoke Alarm Battery", 85)] },
    { device: "Dishwasher", area: "kitchen", maker: "Miele", entities: [k.bin("dishwasher", "Dishwasher", "on", "running"), k.sensor("dishwasher_program", "Dishwasher Program", "eco", null, null)] },
    climateSensor("kitchen", "Kitchen", "kitchen", 22.1, 50),
    // Hall
    { device: "Hall Light", area: "hall", entities: [k.light("hall_light", "Hall Light", "off")] },
    { device: "Front Door Lock", area: "hall", maker: "Yale", entities: [k.lock("front_door", "Front Door", "unlocked"), k.battery("front_door_lock_battery", "Front Door Lock Battery", 34)] },
    contact("front_door_contact", "Front Door Contact", "hall", "door", false),
    motionSensor("hall_motion", "Hall Motion", "hall", false, 12),
    { device: "Alarm Panel", area: "hall", entities: [k.alarm("home_alarm", "Home Alarm", "disarmed")] },
    { device: "Downstairs Thermostat", area: "hall", maker: "Google", model: "Nest Learning Thermostat", entities: [k.climate("downstairs", "Downstairs Thermostat", "heat", 20.4, 21)] },
    // Guest WC
    { device: "Guest WC Light", area: "guest_wc", entities: [k.light("guest_wc", "Guest WC Light", "off")] },
    { device: "Guest WC Fan", area: "guest_wc", entities: [k.fan("guest_wc_fan", "Guest WC Extractor", "off")] },
    // Garage
    { device: "Garage Door", area: "garage", maker: "Meross", entities: [k.cover("garage_door", "Garage Door", "closed", "garage")] },
    { device: "Garage Light", area: "garage", entities: [k.light("garage_light", "Garage Light", "off")] },
    { device: "Side Door Lock", area: "garage", maker: "Nuki", entities: [k.lock("garage_side_door", "Garage Side Door", "locked")] },
    { device: "Wallbox", area: "garage", maker: "Wallbox", model: "Pulsar Plus", entities: [k.sw("ev_charger", "EV Charger", "off"), k.power("ev_charger_power", "EV Charger Power", 0), k.energy("ev_charger_energy", "EV Charger Energy", 412)] },
    { device: "Car", area: "garage", maker: "Tesla", model: "Model 3", entities: [k.battery("car_battery", "Car Battery", 58), k.bin("car_charging", "Car Charging", "off", "battery_charging"), k.sensor("car_range", "Car Range", 240, "distance", "km")] },
    { device: "Freezer Plug", area: "garage", entities: [k.sw("garage_freezer", "Garage Freezer", "on", "outlet")] },
    // Utility room
    { device: "Washing Machine", area: "utility_room", maker: "Bosch", entities: [k.bin("washing_machine", "Washing Machine", "off", "running"), k.sensor("washing_machine_remaining", "Washing Machine Time Left", 0, "duration", "min"), k.power("washing_machine_power", "Washing Machine Power", 2)] },
    { device: "Tumble Dryer", area: "utility_room", entities: [k.bin("dryer", "Tumble Dryer", "off", "running")] },
    { device: "Boiler", area: "utility_room", maker: "Vaillant", entities: [k.heater("hot_water", "Hot Water", "eco", 52), k.sensor("boiler_pressure", "Boiler Pressure", 1.4, "pressure", "bar")] },
    { device: "Utility Leak Sensor", area: "utility_room", entities: [k.bin("utility_leak", "Utility Room Leak", "off", "moisture"), k.battery("utility_leak_battery", "Utility Room Leak Battery", 91)] },
    { device: "Dehumidifier", area: "utility_room", entities: [k.humidifier("dehumidifier", "Dehumidifier", "on")] },
    { device: "Water Main", area: "utility_room", maker: "Shelly", entities: [k.valve("water_main", "Water Main", "open")] },
    { device: "Water Meter", area: "utility_room", entities: [k.sensor("water_meter", "Water Meter", 1432.5, "water", "m³")] },
    // Office
    { device: "Desk Lamp", area: "office", entities: [k.light("desk_lamp", "Desk Lamp", "on")] },
    { device: "Office Ceiling", area: "office", entities: [k.light("office_ceiling", "Office Ceiling", "off")] },
    { device: "Office Speaker", area: "office", maker: "Google", model: "Nest Mini", entities: [k.media("office_speaker", "Office Speaker", "idle", "speaker")] },
    { device: "Office Heater", area: "office", entities: [k.climate("office_heater", "Office Heater", "off", 19, 20)] },
    { device: "Desk Plug", area: "office", entities: [k.sw("desk_plug", "Desk Plug", "on", "outlet"), k.power("desk_plug_power", "Desk Plug Power", 85)] },
    climateSensor("office", "Office", "office", 19.4, 44),
    { device: "Office CO2", area: "office", entities: [k.sensor("office_co2", "Office CO2", 920, "carbon_dioxide", "ppm")] },
    // Master bedroom
    { device: "Bedroom Ceiling", area: "master_bedroom", entities: [k.light("master_bedroom_ceiling", "Bedroom Ceiling", "off")] },
    { device: "Bedside Left", area: "master_bedroom", entities: [k.light("bedside_left", "Bedside Lamp Left", "on")] },
    { device: "Bedside Right", area: "master_bedroom", entities: [k.light("bedside_right", "Bedside Lamp Right", "off")] },
    { device: "Bedroom TV", area: "master_bedroom", maker: "Samsung", entities: [k.media("bedroom_tv", "Bedroom TV", "off", "tv")] },
    { device: "Bedroom Shutters", area: "master_bedroom", entities: [k.cover("bedroom_shutters", "Bedroom Shutters", "closed", "shutter")] },
    { device: "Ceiling Fan", area: "master_bedroom", entities: [k.fan("ceiling_fan", "Ceiling Fan", "off")] },
    { device: "Upstairs Thermostat", area: "landing", maker: "Google", model: "Nest Learning Thermostat", entities: [k.climate("upstairs", "Upstairs Thermostat", "heat", 19.1, 19.5)] },
    climateSensor("master_bedroom", "Bedroom", "master_bedroom", 18.6, 51),
    contact("bedroom_window", "Bedroom Window", "master_bedroom", "window", true),
    // Emma's room
    { device: "Emma's Ceiling Light", area: "emma_room", entities: [k.light("emma_ceiling", "Emma's Ceiling Light", "off")] },
    { device: "Emma's Night Light", area: "emma_room", entities: [k.light("emma_night_light", "Emma's Night Light", "on")] },
    { device: "Emma's Speaker", area: "emma_room", maker: "Amazon", model: "Echo Dot", entities: [k.media("emma_speaker", "Emma's Speaker", "idle", "speaker")] },
    climateSensor("emma_room", "Emma's Room", "emma_room", 20.1, 49),
    // Noah's room
    { device: "Noah's Ceiling Light", area: "noah_room", entities: [k.light("noah_ceiling", "Noah's Ceiling Light", "off")] },
    { device: "Noah's Desk Strip", area: "noah_room", entities: [k.light("noah_desk_strip", "Noah's Desk Strip", "on")] },
    { device: "Gaming PC Plug", area: "noah_room", entities: [k.sw("gaming_pc", "Gaming PC", "on", "outlet"), k.power("gaming_pc_power", "Gaming PC Power", 310)] },
    climateSensor("noah_room", "Noah's Room", "noah_room", 20.9, 46),
    // Bathroom
    { device: "Bathroom Ceiling", area: "bathroom", entities: [k.light("bathroom_ceiling", "Bathroom Ceiling", "off")] },
    { device: "Bathroom Mirror", area: "bathroom", entities: [k.light("bathroom_mirror", "Bathroom Mirror", "off")] },
    { device: "Bathroom Extractor Fan", area: "bathroom", entities: [k.fan("bathroom_fan", "Bathroom Extractor Fan", "on")] },
    { device: "Underfloor Heating", area: "bathroom", entities: [k.climate("bathroom_floor", "Underfloor Heating", "heat", 24, 25)] },
    climateSensor("bathroom", "Bathroom", "bathroom", 23.3, 68),
    // Landing
    { device: "Landing Light", area: "landing", entities: [k.light("landing_light", "Landing Light", "off")] },
    { device: "Landing Smoke Alarm", area: "landing", entities: [k.bin("landing_smoke", "Landing Smoke Alarm", "off", "smoke"), k.battery("landing_smoke_battery", "Landing Smoke Alarm Battery", 14)] },
    motionSensor("landing_motion", "Landing Motion", "landing", false, 88),
    { device: "Upstairs Vacuum", area: "landing", maker: "iRobot", model: "Roomba j7", entities: [k.vacuum("upstairs_vacuum", "Upstairs Vacuum", "docked")] },
    // Basement
    { device: "Gym Lights", area: "gym", entities: [k.light("gym_lights", "Gym Lights", "off")] },
    { device: "Gym Speaker", area: "gym", maker: "Sonos", model: "Era 100", entities: [k.media("gym_speaker", "Gym Speaker", "off", "speaker")] },
    { device: "Treadmill Plug", area: "gym", entities: [k.sw("treadmill", "Treadmill", "off", "outlet")] },
    climateSensor("cellar", "Wine Cellar", "cellar", 12.5, 70),
    { device: "Cellar Light", area: "cellar", entities: [k.light("cellar_light", "Cellar Light", "off")] },
    { device: "Sump Pump", area: "cellar", entities: [k.sw("sump_pump", "Sump Pump", "off"), k.bin("sump_leak", "Sump Water Level", "off", "moisture")] },
    // Outside
    { device: "Front Yard Irrigation", area: "front_yard", maker: "Rachio", entities: [k.valve("front_yard_irrigation", "Front Yard Irrigation", "closed")] },
    { device: "Front Yard Water Meter", area: "front_yard", entities: [k.sensor("front_yard_water_meter", "Front Yard Water Meter", 88.2, "water", "L")] },
    { device: "Front Yard Soil", area: "front_yard", entities: [k.sensor("front_yard_soil_moisture", "Front Yard Soil Moisture", 31, "moisture", "%")] },
    { device: "Porch Light", area: "front_yard", entities: [k.light("porch_light", "Porch Light", "on")] },
    { device: "Back Lawn Sprinkler", area: "back_garden", maker: "Rachio", entities: [k.valve("back_lawn_sprinkler", "Back Lawn Sprinkler", "closed")] },
    { device: "Vegetable Beds Drip", area: "back_garden", maker: "Gardena", entities: [k.valve("vegetable_beds", "Vegetable Beds", "open")] },
    { device: "Garden Lights", area: "back_garden", entities: [k.light("garden_lights", "Garden Lights", "off")] },
    { device: "Pond Pump", area: "back_garden", entities: [k.sw("pond_pump", "Pond Pump", "on")] },
    { device: "Automower", area: "back_garden", maker: "Husqvarna", entities: [k.mower("automower", "Automower", "docked"), k.battery("automower_battery", "Automower Battery", 95)] },
    { device: "Weather Station", area: "back_garden", maker: "Netatmo", entities: [k.temp("outdoor_temperature", "Outdoor Temperature", 9.8), k.humidity("outdoor_humidity", "Outdoor Humidity", 83), k.sensor("rain_today", "Rain Today", 2.4, "precipitation", "mm"), k.sensor("wind_speed", "Wind Speed", 14, "wind_speed", "km/h")] },
    { device: "Back Garden Camera", area: "back_garden", entities: [k.camera("back_garden", "Back Garden Camera")] },
    { device: "Patio Awning", area: "patio", maker: "Somfy", entities: [k.cover("patio_awning", "Patio Awning", "closed", "awning")] },
    { device: "Patio Speaker", area: "patio", maker: "Sonos", model: "Move", entities: [k.media("patio_speaker", "Patio Speaker", "idle", "speaker")] },
    { device: "Patio Heater", area: "patio", entities: [k.sw("patio_heater", "Patio Heater", "off")] },
    { device: "String Lights", area: "patio", entities: [k.light("string_lights", "String Lights", "off")] },
    { device: "Driveway Gate", area: "driveway", entities: [k.cover("driveway_gate", "Driveway Gate", "closed", "gate")] },
    { device: "Driveway Camera", area: "driveway", entities: [k.camera("driveway", "Driveway Camera"), k.bin("driveway_person", "Driveway Person Detected", "off", "occupancy")] },
    { device: "Solar Inverter", area: "garage", maker: "SolarEdge", entities: [k.power("solar_power", "Solar Power", 2310), k.energy("solar_energy_today", "Solar Energy Today", 8.4)] },
    { device: "Downstairs Vacuum", area: "hall", maker: "Roborock", model: "Q7", entities: [k.vacuum("rosie", "Rosie", "docked"), k.sensor("rosie_filter", "Rosie Filter Left", 62, null, "%", { secondary: "diagnostic" })] },
    { device: "Grid Meter", area: "utility_room", maker: "HomeWizard", entities: [k.power("grid_power", "Grid Power", 640), k.energy("grid_energy_today", "Grid Energy Today", 11.3)] },
    // No device
    { entities: [k.todo("shopping_list", "Shopping List", 7), k.todo("hardware_store", "Hardware Store", 2), k.todo("chores", "Chores", 4)] },
    { entities: [k.weather("forecast_home", "Forecast Home"), k.calendar("family", "Family Calendar", "on"), k.calendar("bin_collection", "Bin Collection", "off")] },
    { entities: [k.person("alex", "Alex", "home"), k.person("sam", "Sam", "work"), k.person("emma", "Emma", "school"), k.person("noah", "Noah", "home")] },
    { entities: [k.sensor("alex_phone_battery", "Alex's Phone Battery", 41, "battery", "%"), k.sensor("sam_phone_battery", "Sam's Phone Battery", 87, "battery", "%")] },
    { entities: [k.scene("movie_time", "Movie Time"), k.scene("dinner", "Dinner"), k.scene("good_night", "Good Night"), k.script("leave_home", "Leave Home"), k.script("bedtime_routine", "Bedtime Routine")] },
    { entities: [k.automation("porch_light_at_sunset", "Porch Light at Sunset"), k.automation("water_the_lawn", "Water the Lawn at Dawn"), k.boolean("guest_mode", "Guest Mode", "off"), k.boolean("vacation_mode", "Vacation Mode", "off")] },
  ],
  fill: { items: ["apples", "oat milk", "batteries", "light bulbs", "dog food", "toothpaste"], media: ["jazz", "BBC Radio 4", "the Beatles", "my discover weekly", "a podcast"] },
};
