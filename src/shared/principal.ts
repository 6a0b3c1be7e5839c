import { z } from "zod";

/**
 * Who is calling. Sessions belong to a principal, and no other principal can
 * see or touch them. `id` is the Home Assistant user id, or `addon:<slug>`
 * for another add-on that called with its Supervisor token.
 */
export const PrincipalSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  kind: z.enum(["user", "addon"]),
  isAdmin: z.boolean(),
});
export type Principal = z.infer<typeof PrincipalSchema>;
