import { z } from "zod";
import type { EnergyPrefs } from "../../ha/index.js";

/**
 * The meters behind Home Assistant's Energy dashboard, read from
 * `energy/get_prefs` (`energy/data.py`). A grid connection names its import
 * and export meters (`stat_energy_from`, `stat_energy_to`, either may be
 * null; storage minor version 3, several connections allowed); an install
 * that was never migrated lists them in `flow_from` and `flow_to`. A battery
 * gives energy through `stat_energy_from` and takes it through
 * `stat_energy_to`; solar and wind produce through `stat_energy_from`; gas and
 * water are consumed through it.
 */
export interface EnergyMeters {
  gridImport: string[];
  gridExport: string[];
  solar: string[];
  wind: string[];
  batteryOut: string[];
  batteryIn: string[];
  gas: string[];
  water: string[];
  devices: { statisticId: string; name: string | null; includedIn: string | null }[];
}

const id = z.string().min(1);
const maybeId = id.nullish().catch(null);
const Legacy = z.object({ flow_from: z.array(z.object({ stat_energy_from: maybeId })).catch([]), flow_to: z.array(z.object({ stat_energy_to: maybeId })).catch([]) });
const Connection = z.object({ stat_energy_from: maybeId, stat_energy_to: maybeId });
const Device = z.object({ stat_consumption: id, name: z.string().nullish().catch(null), included_in_stat: id.nullish().catch(null) });

/** The meters named in the preferences; sources of a type HA added later than this reader are left out. */
export function energyMeters(prefs: EnergyPrefs): EnergyMeters {
  const m: EnergyMeters = { gridImport: [], gridExport: [], solar: [], wind: [], batteryOut: [], batteryIn: [], gas: [], water: [], devices: [] };
  const push = (list: string[], value: string | null | undefined) => {
    if (value) list.push(value);
  };
  for (const source of prefs.energy_sources ?? []) {
    const s = Connection.safeParse(source).data ?? { stat_energy_from: null, stat_energy_to: null };
    switch (source.type) {
      case "grid":
        if (Array.isArray(source.flow_from) || Array.isArray(source.flow_to)) {
          const legacy = Legacy.safeParse({ flow_from: source.flow_from ?? [], flow_to: source.flow_to ?? [] }).data;
          for (const f of legacy?.flow_from ?? []) push(m.gridImport, f.stat_energy_from);
          for (const f of legacy?.flow_to ?? []) push(m.gridExport, f.stat_energy_to);
        } else {
          push(m.gridImport, s.stat_energy_from);
          push(m.gridExport, s.stat_energy_to);
        }
        break;
      case "solar":
        push(m.solar, s.stat_energy_from);
        break;
      case "wind":
        push(m.wind, s.stat_energy_from);
        break;
      case "battery":
        push(m.batteryOut, s.stat_energy_from);
        push(m.batteryIn, s.stat_energy_to);
        break;
      case "gas":
        push(m.gas, s.stat_energy_from);
        break;
      case "water":
        push(m.water, s.stat_energy_from);
        break;
    }
  }
  for (const d of prefs.device_consumption ?? []) {
    const parsed = Device.safeParse(d);
    if (parsed.success) m.devices.push({ statisticId: parsed.data.stat_consumption, name: parsed.data.name ?? null, includedIn: parsed.data.included_in_stat ?? null });
  }
  return m;
}

/** Every electricity meter (kWh): what the energy query asks in kWh. */
export const electricityIds = (m: EnergyMeters): string[] => [...new Set([...m.gridImport, ...m.gridExport, ...m.solar, ...m.wind, ...m.batteryOut, ...m.batteryIn, ...m.devices.map((d) => d.statisticId)])];

/** Whether the preferences name any meter at all: saved but empty preferences are a dashboard not set up. */
export const anyMeter = (m: EnergyMeters): boolean => electricityIds(m).length + m.gas.length + m.water.length > 0;
