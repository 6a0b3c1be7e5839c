import { resolve } from "node:path";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { createLogger } from "./common/index.js";
import { CliUsageError, HELP, parseCliArgs, type CliOptions } from "./cli-args.js";
import { demoHouse } from "./demo/index.js";
import { generateHouse } from "./generate-house.js";
import type { House } from "./house-schema.js";
import { loadHouseFile } from "./load.js";
import { startSimulator, type Simulator } from "./simulator.js";
import { simAddon, startSupervisor, type SupervisorSimulator } from "./supervisor/index.js";
import { SimulatorError } from "./errors.js";
import { DEMO_LOGIN, defaultAdmin } from "./users.js";

/** `npm start` in this package (`npm run sim` from HA Agent's root): a Home Assistant simulator on a port, until SIGINT or SIGTERM. */
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

/** `preferred` when nothing listens on it, else a free port the system picks: the trial must not collide with a running demo. */
async function freePort(preferred: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const probe = createNetServer();
      probe.once("error", () => resolve(undefined));
      // HA Agent listens on every interface in add-on mode, so that is where the port must be free.
      probe.listen(port, "0.0.0.0", () => {
        const bound = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(bound));
      });
    });
  return (await tryPort(preferred)) ?? (await tryPort(0))!;
}

/** The Supervisor in front of the house, and how to start HA Agent in add-on mode against it, then use it. */
async function startSupervisorFor(sim: Simulator, port: number, host: string): Promise<SupervisorSimulator | undefined> {
  const [mcpPort, statusPort] = [await freePort(8808), await freePort(8099)];
  // The announced MCP URL names the add-on's host name; on this machine that is where HA Agent listens.
  const addon = simAddon({ slug: "local_ha_agent", name: "HA Agent", hostname: "localhost", discovery: ["mcp"], ingressPort: statusPort });
  const admin = defaultAdmin();
  try {
    const supervisor = await startSupervisor({ ha: sim, addons: [addon], port, host, ingressUser: { id: admin.id, username: DEMO_LOGIN.username, name: admin.name } });
    console.log(`Supervisor: ${supervisor.url}`);
    console.log("Add-on mode against it, in another terminal (user tokens are checked at core_url):");
    console.log(`  mkdir -p data-addon && echo '{"core_url": "${sim.url}"}' > data-addon/options.json`);
    console.log(`  SUPERVISOR_URL=${supervisor.url} SUPERVISOR_TOKEN=${addon.token} DATA_DIR=./data-addon MCP_PORT=${mcpPort} STATUS_PORT=${statusPort} npm start`);
    if (mcpPort !== 8808 || statusPort !== 8099) console.log(`  (8808 or 8099 is in use, by a demo still running perhaps, so the command takes ${mcpPort} and ${statusPort}; stop the demo first to keep the usual ports)`);
    console.log("Then:");
    console.log(`  MCP endpoint: http://127.0.0.1:${mcpPort}/mcp, with 'Authorization: Bearer <the Token above>'`);
    console.log(`  Status page:  ${supervisor.ingressUrl} (the panel Home Assistant's sidebar opens, as ${admin.name})`);
    console.log(`  A model:      npm run fake:gemini in another terminal, then add "gemini_base_url": "<its Base URL>" and "gemini_api_key": "any" to data-addon/options.json`);
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
  // npm runs a package's scripts in its own folder; INIT_CWD is where the command was typed.
  return loadHouseFile(resolve(process.env.INIT_CWD ?? process.cwd(), o.house.path));
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`Simulator failed: ${(err as Error).message ?? String(err)}`);
    process.exit(1);
  },
);
