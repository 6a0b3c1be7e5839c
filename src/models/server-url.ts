import { z } from "zod";

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** A model server's address as a person writes it; `example` shows the expected form in the error. */
export function serverUrl(example: string) {
  return z
    .string()
    .trim()
    .refine((value) => isHttpUrl(value), { message: `must be an http:// or https:// URL, such as ${example}` });
}
