import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The simulator binds real sockets.
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
