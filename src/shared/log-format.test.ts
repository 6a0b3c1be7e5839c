import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.js";
import { formatLogLine } from "./log-format.js";

function capture(format: "text" | "json") {
  const lines: string[] = [];
  const logger = createLogger({ level: "debug", format, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}

describe("readable logs", () => {
  it("writes time, level, part, message and fields on one line", () => {
    const { logger, lines } = capture("text");
    logger.child({ part: "ha" }).info({ version: "2026.11.1", entities: 412, mode: "add on" }, "connected to Home Assistant");
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO {2}\[ha\] connected to Home Assistant version=2026\.11\.1 entities=412 mode="add on"\n$/);
  });

  it("keeps secrets redacted and a stack or a long value on one short line", () => {
    const { logger, lines } = capture("text");
    logger.warn({ token: "abc.def.ghi", authorization: "Bearer x", err: "first\n  at a()\n  at b()", big: { list: "y".repeat(1_000) } }, "something\nhappened");
    const line = lines[0]!;
    expect(line.split("\n")).toHaveLength(2);
    expect(line).toContain("WARN  something | happened");
    expect(line).toContain("token=[redacted]");
    expect(line).not.toContain("abc.def.ghi");
    expect(line).not.toContain("Bearer x");
    expect(line).toContain('err="first | at a() | at b()"');
    expect(line.length).toBeLessThan(500);
  });

  it("still writes pino's JSON when asked for json", () => {
    const { logger, lines } = capture("json");
    logger.child({ part: "store" }).error({ sessions: 3 }, "boot recovery");
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "error", part: "store", sessions: 3, msg: "boot recovery" });
  });

  it("passes a line that is not pino's JSON through unchanged", () => {
    expect(formatLogLine("plain text\n")).toBe("plain text\n");
  });
});
