import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { SimulatorError } from "./errors.js";
import { HouseSchema, type House } from "./house-schema.js";

/** Validates a house document; the error names the first bad fields by path. */
export function parseHouse(data: unknown, source = "house"): House {
  const parsed = HouseSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new SimulatorError("invalid_house", `${source} is not a valid house document: ${describe(parsed.error)}`);
}

/** Reads and validates a house JSON file. */
export async function loadHouseFile(path: string): Promise<House> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new SimulatorError("house_unreadable", `Cannot read house file ${path}: ${(err as Error).message}`, { cause: err });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new SimulatorError("house_not_json", `House file ${path} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  return parseHouse(data, `House file ${path}`);
}

function describe(error: z.ZodError): string {
  const shown = error.issues.slice(0, 5).map((i) => `${formatPath(i.path)}: ${i.message}`);
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : "";
  return shown.join("; ") + more;
}

function formatPath(path: PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("");
}
