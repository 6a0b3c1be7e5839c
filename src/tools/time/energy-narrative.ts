import type { EnergyOut } from "./energy-schema.js";
import { num } from "./words.js";

const kwh = (n: number): string => `${num(n)} kWh`;
const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** How many devices the story names by their use; the structured list has them all. */
const NAMED_DEVICES = 3;

/**
 * The period's energy as a person would say it: "This week (…) you used
 * 84.2 kWh from the grid and exported 12.1 kWh; solar produced 30.5 kWh;
 * the home used 102.6 kWh in all. Heat pump used most (31.0 kWh), then …".
 */
export function energyNarrative(o: { out: Omit<EnergyOut, "narrative" | "start" | "end">; frame: string; missing: string[] }): string {
  const { out } = o;
  const flows = [`you used ${kwh(out.grid.imported)} from the grid${out.grid.exported > 0 ? ` and exported ${kwh(out.grid.exported)}` : ""}`];
  if (out.solar) flows.push(`solar produced ${kwh(out.solar.produced)}`);
  if (out.wind) flows.push(`wind produced ${kwh(out.wind.produced)}`);
  if (out.battery) flows.push(`the battery stored ${kwh(out.battery.charged)} and gave back ${kwh(out.battery.discharged)}`);
  const sentences = [`${capital(o.frame)} ${flows.join("; ")}; the home used ${kwh(out.consumed)} in all.`];
  const used = out.devices.filter((d) => d.consumed > 0);
  if (used.length) {
    const [top, ...next] = used;
    const then = next.slice(0, NAMED_DEVICES - 1).map((d) => `${d.name} (${kwh(d.consumed)})`);
    sentences.push(`${top!.name} used most (${kwh(top!.consumed)})${then.length ? `, then ${then.join(", ")}` : ""}${out.untracked !== undefined ? `; ${kwh(out.untracked)} went to no listed device` : ""}.`);
  } else if (out.devices.length) sentences.push("No listed device used energy in this period.");
  if (out.gas) sentences.push(`Gas: ${num(out.gas.consumed, 2)} ${out.gas.unit}.`);
  if (out.water) sentences.push(`Water: ${num(out.water.consumed, 2)} ${out.water.unit}.`);
  if (out.consumed === 0 && out.grid.imported === 0) sentences.push("Nothing was counted: statistics exist once an hour has ended, and only from when a meter was added.");
  if (o.missing.length) sentences.push(`The Energy dashboard names ${o.missing.join(", ")}, which ${o.missing.length === 1 ? "has" : "have"} no statistics in Home Assistant (removed, renamed, or without a state class).`);
  return sentences.join(" ");
}
