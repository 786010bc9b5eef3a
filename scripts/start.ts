/**
 * `npm start`: check the configuration, build when the sources changed, then run `next start`. The
 * server opens and migrates the database, seeds the demo tenant on first run and prints where it is.
 */
import { spawn } from "node:child_process";
import { ConfigError, parseConfig } from "@/lib/config/env";
import { buildIfNeeded } from "./lib/build";

let config;
try {
  config = parseConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`\nSesame could not start.\n${error.message}\n\n`);
  process.exit(1);
}

if (!buildIfNeeded()) {
  process.stderr.write("\nThe build failed; see the messages above.\n");
  process.exit(1);
}

const server = spawn(
  process.execPath,
  ["node_modules/next/dist/bin/next", "start", "--port", String(config.port)],
  { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
