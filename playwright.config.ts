import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, type PlaywrightTestConfig } from "@playwright/test";

/**
 * e2e runs against real Sesame servers, scripts/server.mjs as `npm start` runs it (build first: `npm test`
 * does; never `next start`, which would believe a client's own X-Forwarded-For): one on a fresh embedded
 * PGlite folder and, when E2E_DATABASE_URL is set, one on Postgres. Tests under e2e/process start and
 * stop servers of their own. "localhost", not 127.0.0.1: WebAuthn needs a valid RP ID.
 */
const pglitePort = Number(process.env.E2E_PGLITE_PORT ?? 3100);
const postgresPort = Number(process.env.E2E_POSTGRES_PORT ?? 3101);
/** A second instance on the same Postgres database: ceremonies must finish on either instance. */
const secondPostgresPort = Number(process.env.E2E_POSTGRES_SECOND_PORT ?? 3102);
const postgresUrl = process.env.E2E_DATABASE_URL;

// Set once in the runner process; workers inherit the same folders.
process.env.E2E_PGLITE_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "sesame-e2e-pglite-"));
process.env.E2E_POSTGRES_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "sesame-e2e-pg-"));
process.env.E2E_POSTGRES_SECOND_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "sesame-e2e-pg2-"));

const server = (port: number, dataDir: string, databaseUrl?: string, publicPort = port) => ({
  command: "node scripts/server.mjs",
  url: `http://localhost:${port}/readyz`,
  reuseExistingServer: false,
  timeout: 90_000,
  stdout: "ignore" as const,
  stderr: "pipe" as const,
  env: {
    PORT: String(port),
    // Instances behind one public origin share it (it is the session issuer), as in a deployment.
    SESAME_BASE_URL: `http://localhost:${publicPort}`,
    SESAME_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? "",
    // Instances sharing a database share the master secret; the embedded one generates its own.
    ...(databaseUrl ? { SESAME_MASTER_SECRET: "e2e-shared-master-secret-0123456789abcdef" } : {}),
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
    // The webhook e2e receiver listens on loopback, as a developer's would.
    SESAME_WEBHOOKS_ALLOW_PRIVATE: "true",
  },
});

const browser = {
  headless: true,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

const projects: PlaywrightTestConfig["projects"] = [
  {
    name: "pglite",
    testIgnore: /process\//,
    use: { ...browser, baseURL: `http://localhost:${pglitePort}` },
    metadata: { dataDir: process.env.E2E_PGLITE_DATA_DIR },
  },
  {
    name: "process",
    testMatch: /process\/.*\.spec\.ts/,
    use: browser,
  },
];
if (postgresUrl) {
  projects.push({
    name: "postgres",
    testIgnore: /process\//,
    use: { ...browser, baseURL: `http://localhost:${postgresPort}` },
    metadata: {
      dataDir: process.env.E2E_POSTGRES_DATA_DIR,
      secondInstanceURL: `http://localhost:${secondPostgresPort}`,
    },
  });
}

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  projects,
  webServer: [
    server(pglitePort, process.env.E2E_PGLITE_DATA_DIR),
    ...(postgresUrl
      ? [
          server(postgresPort, process.env.E2E_POSTGRES_DATA_DIR, postgresUrl),
          server(secondPostgresPort, process.env.E2E_POSTGRES_SECOND_DATA_DIR, postgresUrl, postgresPort),
        ]
      : []),
  ],
});
