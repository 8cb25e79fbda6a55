import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Bun embeds these assets with import attributes that vite ignores; tests read them from node_modules.
    alias: [{ find: /^(.*)\/reference-assets\.ts$/, replacement: "$1/reference-assets.dev.ts" }],
  },
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ["./test/global-setup.ts"],
    pool: "forks",
    // Three files at once on the two cores CI has: a file spends much of its time waiting on the daemons,
    // browsers and databases it drives (two workers kept the cores about half busy).
    maxWorkers: 3,
    reporters: ["default", "./test/helpers/summary-reporter.ts"],
  },
});
