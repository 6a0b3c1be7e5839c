import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The workspace packages run from their sources, as tsconfig.json reads them: no build is needed first.
  ssr: { resolve: { conditions: ["ha-agent-source", ...defaultServerConditions] } },
  test: {
    include: ["src/**/*.test.ts", "web/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts", "scripts/**/*.test.ts", "packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    // Servers bind real sockets; two cores are shared by everything on the machine.
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
