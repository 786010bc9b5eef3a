/**
 * Starting and stopping the servers under test (Sesame's server, scripts/server.mjs as `npm start` runs
 * it, and the floor server), each a separate process with its own fresh data folder or database, and
 * creating their tenant with the CLI first.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { onCleanup } from "./cleanup";

export type ServerKind = "next" | "floor";

export interface Store {
  /** Data folder (PGlite lives in `<dataDir>/pglite`; Postgres ignores it apart from the lock). */
  dataDir: string;
  /** Postgres URL, or undefined for PGlite. */
  databaseUrl: string | undefined;
}

const MASTER_SECRET = "bench-master-secret-0123456789abcdefghijklmnop";

/** The environment Sesame reads, for the CLI and both servers; nothing inherited may override it. */
export function sesameEnv(port: number, store: Store): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    SESAME_BASE_URL: `http://localhost:${port}`,
    SESAME_DATA_DIR: store.dataDir,
    DATABASE_URL: store.databaseUrl ?? "",
    SESAME_MASTER_SECRET: MASTER_SECRET,
    SESAME_SEED_DEMO: "false",
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

export interface BenchTenant {
  tenantId: string;
  passkeyApiKey: string;
  adminApiKey: string;
}

/** `npm run sesame -- tenant create …` against the store, before any server opens it. */
export function createTenant(
  env: NodeJS.ProcessEnv,
  origin: string,
  name = "bench",
  extraArgs: string[] = [],
): BenchTenant {
  // One client on loopback plays many users: the per-IP limit of anonymous passkey logins is lifted.
  const args = [
    ...["--name", name, "--rp-id", "localhost", "--origin", origin],
    ...["--rate-limit", "webauthn_login=100000/1", "--json"],
    ...extraArgs,
  ];
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "cli/sesame.ts", "tenant", "create", ...args],
    { env, encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`tenant create failed:\n${result.stdout}\n${result.stderr}`);
  const output = JSON.parse(result.stdout) as {
    tenant: { id: string };
    keys: { passkey: string; admin: string };
  };
  return { tenantId: output.tenant.id, passkeyApiKey: output.keys.passkey, adminApiKey: output.keys.admin };
}

export interface RunningServer {
  kind: ServerKind;
  pid: number;
  port: number;
  /** Sends SIGTERM, then SIGKILL after 10 s; resolves when the process has exited. */
  stop(): Promise<void>;
}

const COMMANDS: Record<ServerKind, (port: number) => string[]> = {
  next: () => ["scripts/server.mjs"],
  floor: () => ["--import", "tsx", "bench/floor-server.ts"],
};

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

async function waitUntilReady(port: number, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").slice(-4000) : "";
  throw new Error(`server on port ${port} did not become ready; its log (${logFile}):\n${log}`);
}

/** Starts the server with stdout/stderr in `logFile` and waits for GET /readyz to answer 200. */
export async function startServer(
  kind: ServerKind,
  port: number,
  env: NodeJS.ProcessEnv,
  logFile: string,
  extraNodeArgs: string[] = [],
): Promise<RunningServer> {
  const log = fs.openSync(logFile, "a");
  const child = spawn(process.execPath, [...extraNodeArgs, ...COMMANDS[kind](port)], {
    env,
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start the ${kind} server`);
  const done = exited(child);
  const stop = onCleanup(`${kind} server ${pid}`, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await done;
    clearTimeout(timer);
  });
  try {
    await waitUntilReady(port, child, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { kind, pid, port, stop };
}
