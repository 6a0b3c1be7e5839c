import { defineConfig } from "vitest/config";

export default defineConfig({
  // The workspace packages run from their sources, as tsconfig.json reads them: no build is needed first.
  // The rest are Vite's own defaults for a server (vite is vitest's dependency, not ours, so they are not imported).
  ssr: { resolve: { conditions: ["ha-agent-source", "module", "node", "development|production"] } },
  test: {
    include: ["src/**/*.test.ts", "web/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts", "scripts/**/*.test.ts", "packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    // Servers bind real sockets; two cores are shared by everything on the machine.
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
