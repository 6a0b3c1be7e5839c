import { crc32 } from "node:zlib";
import { StoredLineSchema, type StoredLine } from "./step-schema.js";

// `,"crc":"xxxxxxxx"}` closes every line the store writes.
const CRC_SUFFIX = /,"crc":"([0-9a-f]{8})"\}$/;

function crcHex(text: string): string {
  return crc32(text).toString(16).padStart(8, "0");
}

/**
 * One NDJSON line that checks itself: `crc` is the CRC-32 of the line's own
 * JSON with the `,"crc":"…"` part removed. A torn write fails the check.
 */
export function encodeLogLine(line: Omit<StoredLine, "crc">): string {
  const body = JSON.stringify(line);
  return `${body.slice(0, -1)},"crc":"${crcHex(body)}"}\n`;
}

/** Parses one line (without its newline); undefined when it is torn, corrupt or fails the schema. */
export function decodeLogLine(text: string): StoredLine | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const result = StoredLineSchema.safeParse(parsed);
  if (!result.success) return undefined;
  if (result.data.crc !== undefined) {
    // Hand-written lines may omit crc; a line that carries one must match it.
    const match = CRC_SUFFIX.exec(text);
    if (!match || crcHex(`${text.slice(0, match.index)}}`) !== match[1]) return undefined;
  }
  return result.data;
}

export interface ParsedLog {
  /** Intact lines, the store's `final` line included. */
  lines: StoredLine[];
  /** Byte length of the log up to and including the last intact line. */
  goodBytes: number;
  totalBytes: number;
  /** Damaged lines followed by intact ones; these are reported, never cut. */
  damagedInside: number;
}

/** Reads a whole log. Whatever follows the last intact line is a torn tail. */
export function parseLog(buf: Buffer): ParsedLog {
  const lines: StoredLine[] = [];
  let offset = 0;
  let goodBytes = 0;
  let badSinceGood = 0;
  let damagedInside = 0;
  while (offset < buf.length) {
    const nl = buf.indexOf(0x0a, offset);
    if (nl === -1) break; // no newline: the last write was torn
    const text = buf.toString("utf8", offset, nl);
    offset = nl + 1;
    if (text.trim() === "") continue;
    const line = decodeLogLine(text);
    if (line) {
      lines.push(line);
      goodBytes = offset;
      damagedInside += badSinceGood;
      badSinceGood = 0;
    } else {
      badSinceGood += 1;
    }
  }
  return { lines, goodBytes, totalBytes: buf.length, damagedInside };
}
