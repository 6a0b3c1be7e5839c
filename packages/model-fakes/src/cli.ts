import { parseArgs, type ParseArgsConfig } from "node:util";

type Values = Record<string, string | boolean | undefined>;

/** A command-line mistake: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export interface FakeCli {
  /** What the fake is, for "Cannot start the fake …" and "… failed". */
  what: string;
  usage: string;
  /** Shown after the usage by --help. */
  help?: string;
  /** The options besides --port, --host and --help. */
  options: NonNullable<ParseArgsConfig["options"]>;
  /** Starts the fake on `port` and `host`; returns the lines to print and how to stop it. Throws UsageError for a bad value. */
  start(values: Values, listen: { port: number; host: string }): Promise<{ lines: string[]; close(): Promise<void> }>;
}

/** A whole number given as --name, or undefined when absent; a UsageError names what was given. */
export function wholeNumber(values: Values, name: string, what: string): number | undefined {
  const text = values[name] as string | undefined;
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`--${name} must be a whole number ${what}, got "${text}"`);
  return Number(text);
}

/** `--models a,b` as a list; undefined when not given, empty when given empty. */
export function modelList(values: Values): string[] | undefined {
  return (values.models as string | undefined)
    ?.split(",")
    .map((m) => m.trim())
    .filter(Boolean);
}

/**
 * Runs a fake model server's command line: parses the arguments, starts it,
 * prints where it listens, and serves until Ctrl+C or SIGTERM. Exit codes:
 * 0 stopped, 1 could not start, 2 a bad argument.
 */
export function runFakeCli(cli: FakeCli, argv = process.argv.slice(2)): void {
  main(cli, argv).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`${cli.what} failed: ${(err as Error).message ?? String(err)}`);
      process.exit(1);
    },
  );
}

async function main(cli: FakeCli, argv: string[]): Promise<number> {
  let values: Values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { ...cli.options, port: { type: "string" }, host: { type: "string" }, help: { type: "boolean", short: "h" } } }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${cli.usage}`);
    return 2;
  }
  if (values.help) {
    console.log(cli.help ? `${cli.usage}\n\n${cli.help}` : cli.usage);
    return 0;
  }
  let started;
  try {
    const port = wholeNumber(values, "port", "from 0 to 65535") ?? 0;
    if (port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, got "${String(values.port)}"`);
    started = await cli.start(values, { port, host: (values.host as string | undefined) ?? "127.0.0.1" });
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n${cli.usage}`);
      return 2;
    }
    const code = (err as NodeJS.ErrnoException).code;
    console.error(code === "EADDRINUSE" ? `Port ${String(values.port)} is already in use; pick another with --port.` : `Cannot start the ${cli.what}: ${(err as Error).message}`);
    return 1;
  }
  for (const line of started.lines) console.log(line);
  console.log("Press Ctrl+C to stop.");
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await started.close();
  return 0;
}
