import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      "server-only": path.join(root, "tests/setup/server-only.ts"),
    },
  },
  test: {
    environment: "node",
    include: [
      "lib/**/*.test.ts",
      "elements/**/*.test.ts",
      "app/**/*.test.ts",
      "cli/**/*.test.ts",
      "tests/**/*.test.ts",
    ],
    globalSetup: ["tests/setup/pglite-template.ts"],
    setupFiles: ["tests/setup/database.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    env: {
      LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
      SESAME_MASTER_SECRET: "test-master-secret-0123456789abcdefghijklmnop",
      SESAME_DATA_DIR: path.join(os.tmpdir(), "sesame-vitest-data"),
      SESAME_SEED_DEMO: "false",
    },
  },
});
