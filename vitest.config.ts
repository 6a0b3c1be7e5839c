import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "web/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts", "scripts/**/*.test.ts"],
    // Servers bind real sockets; two cores are shared by everything on the machine.
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
