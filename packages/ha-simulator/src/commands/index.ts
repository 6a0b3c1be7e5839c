import { authCommands } from "./auth.js";
import { automationCommands } from "./automations.js";
import type { Command } from "./command.js";
import { coreCommands } from "./core.js";
import { energyCommands } from "./energy.js";
import { exposureCommands } from "./exposure.js";
import { subscribeEntities } from "./entities.js";
import { registryCommands } from "./registries.js";
import { serviceCommands } from "./services.js";
import { recorderCommands } from "./recorder.js";
import { renderTemplateCommand } from "./template.js";

export { humanizeIssues, humanizeLine } from "./humanize.js";

/** Every WebSocket command the simulator understands, by type. */
export function allCommands(): Map<string, Command> {
  const list: Command[] = [...coreCommands, subscribeEntities, ...registryCommands, ...serviceCommands, ...recorderCommands, ...energyCommands, ...automationCommands, renderTemplateCommand, ...exposureCommands, ...authCommands];
  return new Map(list.map((c) => [c.type, c]));
}
