import type { HaClient } from "../ha/index.js";
import type { HomeIndex } from "../indexer/index.js";
import type { Clock, ClockJumps, Logger } from "../shared/index.js";
import type { PersonaRegistry } from "../personas/index.js";
import type { Store } from "../store/index.js";
import { createCallServiceTool, createGroundingTools, createLogicTools, createTimeTools, ToolRegistry, type ActuationCeiling, type ToolNameSeparator } from "../tools/index.js";
import { exposedView } from "./exposed-index.js";
import { createExposureSource, type ExposureSource } from "./exposure-source.js";
import type { TurnPersonas } from "./execute-continuation.js";
import { AgentRuntime, type AgentModels } from "./runtime.js";

export interface CreateAgentOptions {
  store: Store;
  index: HomeIndex;
  ha: HaClient;
  models: AgentModels;
  clock: Clock;
  logger: Logger;
  ceiling: ActuationCeiling;
  /** allow_automation_edits: sessions that ask a person may save automations after a yes. */
  automationEdits?: boolean;
  maxConcurrentModelCalls?: number;
  /** approval_timeout_s, in ms. */
  approvalTimeoutMs?: number;
  /** The program's wall-clock jump watch (see loggedClockJumps). */
  jumps?: ClockJumps;
  separator?: ToolNameSeparator;
  /** The personas sessions may take on; they read the same view of the home as the agent. */
  personas?: PersonaRegistry;
  /** Home Assistant's time zone, for the times tools and priming write. */
  timeZone?: () => Promise<string>;
}

/**
 * The agent with its own view of the home: the same tool factories MCP
 * clients use, built over an index that leaves out what the user did not
 * expose to Assist.
 */
export function createAgent(options: CreateAgentOptions): { runtime: AgentRuntime; exposure: ExposureSource; view: HomeIndex; personas: TurnPersonas | undefined } {
  const exposure = createExposureSource({ ha: options.ha, clock: options.clock, logger: options.logger });
  const view = exposedView(options.index, (e) => exposure.visible(e));
  // Energy names a device as the Energy dashboard does, by the name HA shows every user: its figures are shown either way.
  const displayName = (id: string) => options.index.entity(id)?.name;
  const registry = new ToolRegistry(options.separator);
  const timeZone = options.timeZone ? { timeZone: options.timeZone } : {};
  for (const tool of [
    ...createGroundingTools({ index: view, ha: options.ha, clock: options.clock, ...timeZone }),
    ...createTimeTools({ index: view, ha: options.ha, clock: options.clock, displayName, ...timeZone }),
    createCallServiceTool({ ha: options.ha, index: view, ceiling: options.ceiling }),
    // Automations are configuration, not devices: Assist exposes none by default, and these tools are for administrators, who see them all in HA.
    ...createLogicTools({ index: options.index, ha: options.ha, clock: options.clock, automationEdits: options.automationEdits === true, ...timeZone }),
  ])
    registry.register(tool);
  const personas = options.personas
    ? { registry: options.personas, context: { index: view, ha: options.ha, clock: options.clock, logger: options.logger.child({ part: "personas" }), refresh: () => exposure.refresh(), displayName, ...(options.timeZone ? { timeZone: options.timeZone } : {}) } }
    : undefined;
  const runtime = new AgentRuntime({
    ...(personas ? { personas } : {}),
    store: options.store,
    registry,
    index: view,
    models: options.models,
    clock: options.clock,
    logger: options.logger,
    ceiling: options.ceiling,
    automationEdits: options.automationEdits === true,
    exposure,
    ...(options.maxConcurrentModelCalls ? { maxConcurrentModelCalls: options.maxConcurrentModelCalls } : {}),
    ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
    ...(options.jumps ? { jumps: options.jumps } : {}),
  });
  return { runtime, exposure, view, personas };
}
