import { createLogger } from "../shared/index.js";
import { CliUsageError, HELP, parseCliArgs, type CliOptions } from "./cli-args.js";
import { demoHouse } from "./demo/index.js";
import { generateHouse } from "./generate-house.js";
import type { House } from "./house-schema.js";
import { loadHouseFile } from "./load.js";
import { startSimulator, type Simulator } from "./simulator.js";
import { simAddon, startSupervisor, type SupervisorSimulator } from "./supervisor/index.js";
import { SimulatorError } from "./errors.js";
import { DEMO_LOGIN, defaultAdmin } from "./users.js";

/** `npm run sim`: a Home Assistant simulator on a port, until SIGINT or SIGTERM. */
async function main(argv: string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliArgs(argv);
  } catch (err) {
    if (err instanceof CliUsageError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  if (options.help) {
    console.log(HELP);
    return 0;
  }
  let house: House;
  try {
    house = await loadHouse(options);
  } catch (err) {
    if (err instanceof SimulatorError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const users = options.token ? [defaultAdmin(options.token)] : undefined;
  const logger = createLogger({ level: "warn" });
  let sim;
  try {
    sim = await startSimulator({ house, port: options.port, host: options.host, users, logger });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    console.error(code === "EADDRINUSE" ? `Port ${options.port} on ${options.host} is already in use; pick another with --port.` : `Cannot start the simulator: ${(err as Error).message}`);
    return 1;
  }
  console.log(`Home Assistant simulator ${sim.haVersion}: "${house.name}", ${house.entities.length} entities (${sim.home.states().length} enabled)`);
  console.log(`URL:       ${sim.url}`);
  console.log(`WebSocket: ${sim.wsUrl}`);
  console.log(`Token:     ${sim.users.tokenFor()}`);
  console.log(`Login:     ${sim.url}/auth/authorize as ${DEMO_LOGIN.username} / ${DEMO_LOGIN.password}`);
  let supervisor: SupervisorSimulator | undefined;
  if (options.supervisor) {
    supervisor = await startSupervisorFor(sim, options.supervisor.port, options.host);
    if (!supervisor) {
      await sim.close();
      return 1;
    }
  }
  console.log("Press Ctrl+C to stop.");
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await supervisor?.close();
  await sim.close();
  return 0;
}

/** The Supervisor in front of the house, and how to start HA Agent in add-on mode against it. */
async function startSupervisorFor(sim: Simulator, port: number, host: string): Promise<SupervisorSimulator | undefined> {
  // The announced MCP URL names the add-on's host name; on this machine that is where HA Agent listens.
  const addon = simAddon({ slug: "local_ha_agent", name: "HA Agent", hostname: "localhost", discovery: ["mcp"] });
  try {
    const supervisor = await startSupervisor({ ha: sim, addons: [addon], port, host });
    console.log(`Supervisor: ${supervisor.url}`);
    console.log("Add-on mode against it (user tokens are checked at core_url):");
    console.log(`  mkdir -p data-addon && echo '{"core_url": "${sim.url}"}' > data-addon/options.json`);
    console.log(`  SUPERVISOR_URL=${supervisor.url} SUPERVISOR_TOKEN=${addon.token} DATA_DIR=./data-addon npm start`);
    return supervisor;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    console.error(code === "EADDRINUSE" ? `Port ${port} on ${host} is already in use; pick another with --supervisor-port.` : `Cannot start the simulated Supervisor: ${(err as Error).message}`);
    return undefined;
  }
}

function loadHouse(o: CliOptions): Promise<House> {
  if (o.house.kind === "demo") return Promise.resolve(demoHouse());
  if (o.house.kind === "generated") return Promise.resolve(generateHouse({ entities: o.house.entities, seed: o.seed }));
  return loadHouseFile(o.house.path);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`Simulator failed: ${(err as Error).message ?? String(err)}`);
    process.exit(1);
  },
);
