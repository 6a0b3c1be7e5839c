import type { z } from "zod";

/**
 * One readable line per problem, naming the argument: `area: expected string,
 * received number`. Tool callers (people and models) act on this text.
 */
export function formatZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length ? issue.path.map(String).join(".") : "arguments";
      return `${path}: ${issue.message}`;
    })
    .join("; ");
}
