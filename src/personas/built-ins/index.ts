import type { PersonaSpec } from "../persona.js";
import { automationHelper } from "./automation-helper.js";
import { energyAnalyst } from "./energy-analyst.js";
import { homeGuide } from "./home-guide.js";
import { troubleshooter } from "./troubleshooter.js";

/** The personas that ship with the add-on. */
export function builtInPersonas(): PersonaSpec[] {
  return [troubleshooter(), energyAnalyst(), homeGuide(), automationHelper()];
}
