/**
 * Starting and stopping the servers under test, each a separate process (group) with its own fresh data
 * folder or database: Sesame as `npm start` runs it (`sesame`: npm, its shell and `node
 * scripts/server.mjs`) or its server alone (`next`), Sesame's domain functions on `node:http`
 * (`domain`, bench/domain-server.ts) and the independent floor (`floor`, bench/independent-floor.ts).
 * Sesame's and the domain server's tenant is made with the CLI first; the floor makes its own.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { onCleanup } from "./cleanup";

export type ServerKind = "sesame" | "next" | "domain" | "floor";

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
  /** The Authenticator API key (UAF), when the tenant was made by Sesame's CLI. */
  authenticatorApiKey?: string;
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
    keys: { passkey: string; admin: string; authenticator: string };
  };
  return {
    tenantId: output.tenant.id,
    passkeyApiKey: output.keys.passkey,
    adminApiKey: output.keys.admin,
    authenticatorApiKey: output.keys.authenticator,
  };
}

export interface RunningServer {
  kind: ServerKind;
  pid: number;
  port: number;
  /** Sends SIGTERM to its process group, then SIGKILL after 10 s; resolves when the process has exited. */
  stop(): Promise<void>;
}

/** What each kind runs: node with these arguments, or (`sesame`) `npm start` (with node options: its server alone). */
const COMMANDS: Record<Exclude<ServerKind, "sesame">, string[]> = {
  next: ["scripts/server.mjs"],
  domain: ["--import", "tsx", "bench/domain-server.ts"],
  floor: ["--import", "tsx", "bench/independent-floor.ts"],
};

/** The npm that runs this node (npm-cli.js next to it), so `npm start` uses the same node. */
function npmCommand(): { file: string; args: string[] } {
  const cli = path.join(
    path.dirname(process.execPath),
    "..",
    "lib",
    "node_modules",
    "npm",
    "bin",
    "npm-cli.js",
  );
  return fs.existsSync(cli) ? { file: process.execPath, args: [cli] } : { file: "npm", args: [] };
}

/** The independent floor's tenant and API key (it stores them itself at start, from its environment). */
export function floorEnv(
  env: NodeJS.ProcessEnv,
  origin: string,
): { env: NodeJS.ProcessEnv; tenant: BenchTenant } {
  const tenantId = randomUUID();
  const passkeyApiKey = `floorkey${randomBytes(24).toString("base64url")}`;
  return {
    env: {
      ...env,
      FLOOR_TENANT_ID: tenantId,
      FLOOR_API_KEY: passkeyApiKey,
      FLOOR_RP_ID: "localhost",
      FLOOR_ORIGIN: origin,
    },
    tenant: { tenantId, passkeyApiKey, adminApiKey: "" },
  };
}

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
  const npm = npmCommand();
  // Its own process group, so that stopping it stops everything it started (npm's shell and server).
  // Node refuses --cpu-prof in NODE_OPTIONS: a profiled Sesame runs as its server process alone.
  const viaNpm = kind === "sesame" && extraNodeArgs.length === 0;
  const child = viaNpm
    ? spawn(npm.file, [...npm.args, "start"], {
        env,
        stdio: ["ignore", log, log],
        detached: true,
      })
    : spawn(process.execPath, [...extraNodeArgs, ...COMMANDS[kind === "sesame" ? "next" : kind]], {
        env,
        stdio: ["ignore", log, log],
        detached: true,
      });
  fs.closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start the ${kind} server`);
  const done = exited(child);
  const stop = onCleanup(`${kind} server ${pid}`, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-pid, signal);
      } catch {
        // the group is gone already
      }
    };
    signalGroup("SIGTERM");
    const timer = setTimeout(() => signalGroup("SIGKILL"), 10_000);
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
