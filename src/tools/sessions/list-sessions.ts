import { z } from "zod";
import { isUlid, type Store } from "../../store/index.js";
import { text } from "../limits.js";
import { defineTool, fail, ok, type ToolSpec } from "../tool.js";
import { SessionBriefWire, sessionBriefToWire } from "./wire.js";

const Input = z.object({
  status: z.enum(["active", "ended", "expired"]).optional(),
  limit: z.number().int().min(1).max(100).default(20).describe("1-100"),
  cursor: text().optional().describe("next_cursor of the previous page"),
});

const Output = z.object({
  sessions: z.array(SessionBriefWire).describe("Your sessions, newest first."),
  next_cursor: z.string().nullable().describe("Pass as cursor for the next page; null when this is the last page."),
});

/** `list_sessions`: the caller's own sessions, page by page. */
export function createListSessionsTool(deps: { store: Store }): ToolSpec {
  return defineTool({
    name: "list_sessions",
    title: "List your sessions",
    description: "Lists your sessions, newest first.",
    input: Input,
    output: Output,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async invoke(args, ctx) {
      if (args.cursor !== undefined && !isUlid(args.cursor)) {
        return fail("invalid_argument", "cursor: not a cursor from this tool; pass next_cursor from the previous page, or omit it to start over.");
      }
      const page = deps.store.sessions.list(ctx.principal.id, { status: args.status, limit: args.limit, cursor: args.cursor });
      return ok({ sessions: page.sessions.map(sessionBriefToWire), next_cursor: page.nextCursor ?? null });
    },
  });
}
