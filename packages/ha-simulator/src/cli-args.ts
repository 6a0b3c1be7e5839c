import { parseArgs } from "node:util";

export interface CliOptions {
  port: number;
  host: string;
  house: { kind: "demo" } | { kind: "generated"; entities: number } | { kind: "file"; path: string };
  seed: number;
  token: string | undefined;
  /** `--supervisor`: also a simulated Supervisor in front of it, on this port. */
  supervisor: { port: number } | undefined;
  /** `--help` was given: print HELP and exit 0. */
  help?: true;
}

export class CliUsageError extends Error {}

export const USAGE = `Usage: npm run sim -- [--port 8123] [--host 127.0.0.1] [--house demo | generated:10000 | path/to/house.json] [--seed N] [--token T] [--supervisor [--supervisor-port 8124]]`;

/** What `--help` prints: the usage, then what each option does. */
export const HELP = `${USAGE}

Runs the Home Assistant simulator: HA's WebSocket and REST APIs over a
simulated house, for trying HA Agent (or any HA client) without a real home.

Options:
  --port N        port to listen on (default 8123; 0 picks a free one)
  --host ADDR     address to listen on (default 127.0.0.1)
  --house H       demo (default): the demo house;
                  generated:N: a generated house with about N entities;
                  path/to/house.json: a house file (see packages/ha-simulator/README.md)
  --seed N        seed for a generated house (default 1)
  --token T       the token clients authenticate with (default: a random one)
  --supervisor    also run a simulated Supervisor in front of the house, and
                  print how to start HA Agent in add-on mode against it
  --supervisor-port N
                  the Supervisor's port (default 8124; 0 picks a free one)
  -h, --help      show this help

It prints the URL and the token, then serves until Ctrl+C.
Example: npm run sim -- --port 8123 --house generated:10000`;

/** Parses the simulator's command line; every mistake is a CliUsageError that says what is expected. */
export function parseCliArgs(argv: string[]): CliOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        house: { type: "string" },
        seed: { type: "string" },
        token: { type: "string" },
        supervisor: { type: "boolean" },
        "supervisor-port": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    throw new CliUsageError(`${(err as Error).message}\n${USAGE}`);
  }
  if (values.help) return { help: true } as CliOptions;
  const port = integer(values.port as string | undefined, "--port", 8123, 0, 65535);
  const seed = integer(values.seed as string | undefined, "--seed", 1, 0, 2 ** 32 - 1);
  const houseArg = (values.house as string | undefined) ?? "demo";
  let house: CliOptions["house"];
  if (houseArg === "demo") house = { kind: "demo" };
  else if (houseArg.startsWith("generated:")) {
    house = { kind: "generated", entities: integer(houseArg.slice("generated:".length), "--house generated:N", 0, 1, 100_000) };
  } else if (houseArg.trim() !== "") house = { kind: "file", path: houseArg };
  else throw new CliUsageError(`--house must be demo, generated:N or a path to a house JSON file\n${USAGE}`);
  const token = values.token as string | undefined;
  if (token !== undefined && token.trim() === "") throw new CliUsageError(`--token must not be empty\n${USAGE}`);
  const supervisorPort = values["supervisor-port"] as string | undefined;
  if (supervisorPort !== undefined && !values.supervisor) throw new CliUsageError(`--supervisor-port needs --supervisor\n${USAGE}`);
  const supervisor = values.supervisor ? { port: integer(supervisorPort, "--supervisor-port", 8124, 0, 65535) } : undefined;
  return { port, host: (values.host as string | undefined) ?? "127.0.0.1", house, seed, token, supervisor };
}

function integer(text: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) throw new CliUsageError(`${name} must be a whole number from ${min} to ${max}, got "${text}"\n${USAGE}`);
  return n;
}
