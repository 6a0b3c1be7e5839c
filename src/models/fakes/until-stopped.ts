/** Resolves on Ctrl+C or SIGTERM, for the fake servers' command lines. */
export function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
}
