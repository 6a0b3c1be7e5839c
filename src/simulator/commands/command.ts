import { z } from "zod";
import type { SimConnection } from "../connection.js";

/** A command failure with one of HA's error codes (`not_found`, `invalid_format`, …). */
export class CommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type CommandMessage = { id: number; type: string } & Record<string, unknown>;

export interface Command {
  type: string;
  /** Commands a non-admin user may not run (HA's `@require_admin`). */
  adminOnly?: boolean;
  handle(conn: SimConnection, msg: CommandMessage): void | Promise<void>;
}

/** A command whose message is validated by `schema` first; a mismatch is `invalid_format`, as in HA. */
export function defineCommand<S extends z.ZodType>(
  type: string,
  schema: S,
  handle: (conn: SimConnection, msg: z.infer<S> & { id: number }) => void | Promise<void>,
  options: { adminOnly?: boolean } = {},
): Command {
  return {
    type,
    adminOnly: options.adminOnly,
    handle: (conn, msg) => {
      const parsed = schema.safeParse(msg);
      if (!parsed.success) throw new CommandError("invalid_format", describeIssues(parsed.error));
      return handle(conn, { ...(parsed.data as object), id: msg.id } as z.infer<S> & { id: number });
    },
  };
}

/** Voluptuous-style wording, e.g. "required key not provided @ data['entity_ids']". */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.map((p) => `['${String(p)}']`).join("");
      const what = i.code === "invalid_type" && i.input === undefined ? "required key not provided" : i.message;
      return `${what} @ data${where}`;
    })
    .join("; ");
}

export const EmptySchema = z.object({});
