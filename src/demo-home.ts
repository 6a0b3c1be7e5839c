import type { Clock, Logger } from "./shared/index.js";
import { HaAgentError, describeError, importPackage } from "./shared/index.js";
import { loadSecret } from "./store/index.js";

/**
 * Demo mode's Home Assistant: the simulator of the `@ha-agent/ha-simulator`
 * package, which a clone of the repository holds and the add-on image does
 * not. What the program needs of it is declared here, so src/ compiles and
 * ships without the package, and the package is loaded by a name in a
 * variable (importPackage).
 * `test/app/demo-home-port.test.ts` holds the package to these shapes.
 */
export const SIMULATOR_PACKAGE = "@ha-agent/ha-simulator";

/** The running simulator, as the program uses it. */
export interface DemoSimulator {
  /** Home Assistant's address for browsers (its login page). */
  url: string;
  wsUrl: string;
  apiUrl: string;
  users: { tokenFor(userId?: string): string };
  close(): Promise<void>;
}

interface DemoUser {
  id: string;
  name: string;
  isAdmin: boolean;
  tokens: string[];
}

/** The part of the package's public API demo mode uses. */
export interface SimulatorPort {
  DEMO_LOGIN: { readonly username: string; readonly password: string };
  defaultAdmin(token?: string): DemoUser;
  demoHouse(): object;
  haStyleToken(label?: string): string;
  startSimulator(options: { house: object; host?: string; logger?: Logger; clock?: Clock; users?: DemoUser[] }): Promise<DemoSimulator>;
}

/** Demo mode was chosen, but this copy of HA Agent has no simulator to run it. */
export class DemoUnavailableError extends HaAgentError {
  constructor(packageName: string) {
    super(
      "demo_unavailable",
      `No Home Assistant is configured (HA_URL and HA_TOKEN, or the add-on's SUPERVISOR_TOKEN), so HA Agent would start its demo, but the demo's simulator (the ${packageName} package) is not part of this copy of HA Agent: the add-on image does not hold it. Set HA_URL and HA_TOKEN to use your Home Assistant, or run the demo from a clone of the repository with \`npm ci && npm start\`.`,
    );
  }
}

export function loadSimulator(packageName: string = SIMULATOR_PACKAGE): Promise<SimulatorPort> {
  return importPackage(packageName, () => new DemoUnavailableError(packageName));
}

export interface DemoHome {
  simulator: DemoSimulator;
  /** How the program reaches the simulated Home Assistant. */
  ha: { wsUrl: string; apiUrl: string; token: string };
  /** The console's visitor who names no one: the demo house's own user, whose sessions MCP clients create. */
  user: { id: string; name: string };
  /** The login the banner prints for clients that sign in. */
  login: { username: string; password: string };
}

/**
 * Starts the demo house on loopback. Its token is the same at every start,
 * so a client set up from the banner or the console keeps working;
 * DEMO_TOKEN overrides it, and either is a token of the demo house's own
 * user, so its sessions stay the same.
 */
export async function startDemoHome(o: { dataDir: string; token: string | undefined; house?: object; logger: Logger; clock: Clock; packageName?: string }): Promise<DemoHome> {
  const sim = await loadSimulator(o.packageName);
  const token =
    o.token ??
    (await loadSecret({ dataDir: o.dataDir, name: "demo-token" }).then(
      ({ key }) => sim.haStyleToken(Buffer.from(key).toString("hex")),
      (err: unknown) => {
        o.logger.warn({ err: describeError(err) }, "Could not keep the demo token in the data directory; it changes at every start");
        return sim.haStyleToken();
      },
    ));
  const house = o.house ?? sim.demoHouse();
  const simulator = await sim.startSimulator({ house, host: "127.0.0.1", logger: o.logger.child({ part: "simulator" }), clock: o.clock, users: [sim.defaultAdmin(token)] });
  const { id, name } = sim.defaultAdmin();
  return {
    simulator,
    ha: { wsUrl: simulator.wsUrl, apiUrl: simulator.apiUrl, token: simulator.users.tokenFor() },
    user: { id, name },
    login: { ...sim.DEMO_LOGIN },
  };
}
