import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

const testDirs = ["lib", "elements", "app", "cli", "tests"];
const include = testDirs.map((dir) => `${dir}/**/*.test.ts`);

/**
 * Test files that change what the files after them in the same worker would see: module mocks (`vi.mock`
 * of Next's request plumbing), the environment stubbed (the configuration reads it once and caches it),
 * spies on shared modules, fake timers, globals. They run isolated, each with a fresh module graph; every
 * other file runs in the shared project, where a worker loads the modules once for all the files it runs
 * (`isolate: false`: half the CPU of isolating each file, docs/development.md). Found by reading the files,
 * so a new file that mocks or stubs is isolated without a list to keep.
 */
const SHARED_STATE =
  /\bvi\.(mock|doMock|stubEnv|stubGlobal|spyOn|useFakeTimers|resetModules)\b|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|globalThis(\.\w+|\[[^\]]+\])\s*=[^=]/;
export const isolatedFiles = testDirs
  .flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .map((file) => `${dir}/${file}`),
  )
  .filter((file) => file.endsWith(".test.ts"))
  .filter((file) => SHARED_STATE.test(fs.readFileSync(path.join(root, file), "utf8")))
  .sort();

/**
 * Files this run leaves out, one a line: npm test's Postgres run leaves out the files that never opened the
 * database on PGlite (scripts/test.ts).
 */
const skipped = process.env.SESAME_VITEST_SKIP
  ? fs.readFileSync(process.env.SESAME_VITEST_SKIP, "utf8").split("\n").filter(Boolean)
  : [];

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      "server-only": path.join(root, "tests/setup/server-only.ts"),
    },
  },
  test: {
    environment: "node",
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
    // Both projects inherit everything above (`extends: true`; without it a vitest 4 inline project starts
    // from nothing: no `@` alias, no setup files).
    projects: [
      {
        extends: true,
        test: { name: "shared", include, exclude: [...isolatedFiles, ...skipped], isolate: false },
      },
      { extends: true, test: { name: "isolated", include: isolatedFiles, exclude: skipped, isolate: true } },
    ],
  },
});
