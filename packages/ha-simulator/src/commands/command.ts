import { z } from "zod";
import { CommandError } from "../command-error.js";
import type { Command, CommandConnection, CommandMessage } from "../context.js";
import { humanizeIssues, humanizeLine } from "./humanize.js";

export { CommandError };
export type { Command, CommandMessage };

type Fields = z.ZodRawShape;
type Parsed<F extends Fields> = z.infer<z.ZodObject<F>> & { id: number; type: string };

/**
 * A command validated the way HA's `@websocket_command` validates it: the
 * message may hold `id`, `type` and the declared fields and nothing else. A
 * mismatch is `invalid_format` with voluptuous's wording. `fields` is null for
 * commands that take nothing but their type, which HA checks by counting keys.
 * `adminOnly` is HA's `@require_admin`, checked after the schema as in HA.
 */
export function defineCommand<F extends Fields>(
  type: string,
  fields: F | null,
  handle: (conn: CommandConnection, msg: Parsed<F>) => void | Promise<void>,
  options: { adminOnly?: boolean } = {},
): Command {
  const schema = fields && z.strictObject({ id: z.number(), type: z.string(), ...fields });
  const authorize = (conn: CommandConnection) => {
    if (options.adminOnly && !conn.user?.isAdmin) throw new CommandError("unauthorized", "Unauthorized");
  };
  return {
    type,
    handle: (conn, msg) => {
      if (!schema) {
        if (Object.keys(msg).length > 2) throw new CommandError("invalid_format", humanizeLine(msg, "extra keys not allowed", []));
        authorize(conn);
        return handle(conn, msg as Parsed<F>);
      }
      const parsed = schema.safeParse(msg);
      if (!parsed.success) throw new CommandError("invalid_format", humanizeIssues(msg, parsed.error.issues));
      authorize(conn);
      return handle(conn, parsed.data as Parsed<F>);
    },
  };
}
