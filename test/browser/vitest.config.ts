import { defineConfig } from "vitest/config";

// The browser suite: its own run (`npm run test:browser`), one file at a time, never part of `npm test`.
export default defineConfig({
  test: {
    include: ["test/browser/**/*.browser.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
