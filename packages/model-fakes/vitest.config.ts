import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // The fakes bind real sockets.
    pool: "forks",
    testTimeout: 20_000,
  },
});
