/**
 * A throwaway PostgreSQL 15 cluster for tests: initdb into a temp folder, start on a free loopback
 * port, stop and remove. Postgres refuses to run as root, so as root it runs as the `postgres` user.
 * Installs Debian's postgresql-15 when its binaries are missing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const BIN = "/usr/lib/postgresql/15/bin";

export interface Postgres {
  port: number;
  dataDir: string;
  /** URL of database `name` (created with createDatabase). */
  url(name: string): string;
  createDatabase(name: string): void;
  /** Runs `query` with psql on database `name` as the superuser; returns what it prints (unaligned, no headers). */
  psql(name: string, query: string): string;
  /** Stops the server (fast shutdown); the cluster stays, so start() brings it back on the same port. */
  stop(): void;
  start(): void;
  /** Kills the postmaster with SIGKILL (a crash: no shutdown checkpoint, clients see resets). */
  kill(): void;
  /** A standby: promotes it to primary (`pg_ctl promote`, waits until it accepts writes). */
  promote(): void;
  /** Stops the server and deletes the cluster. */
  destroy(): void;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

function run(command: string, args: string[]): string {
  const [file, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

export function ensurePostgres15(): void {
  if (fs.existsSync(path.join(BIN, "postgres"))) return;
  process.stderr.write("Installing postgresql-15 with apt-get …\n");
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", "postgresql-15"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}

/**
 * `settings`: extra server settings (`-c name=value`) after the defaults, e.g. the benchmark's
 * `shared_preload_libraries=pg_stat_statements`. Without it the cluster is as before.
 */
export async function startPostgres(settings: Record<string, string> = {}): Promise<Postgres> {
  ensurePostgres15();
  const port = await freePort();
  const dataDir = newDataDir();
  run(path.join(BIN, "initdb"), [
    "-D",
    dataDir,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-locale",
  ]);
  return serve(dataDir, port, settings);
}

/**
 * A streaming-replication standby of `primary` (`pg_basebackup -R`: a copy of its data folder that
 * follows its write-ahead log), started on a port of its own with the same `settings`.
 */
export async function startStandby(
  primary: Postgres,
  settings: Record<string, string> = {},
): Promise<Postgres> {
  const port = await freePort();
  const dataDir = newDataDir();
  run(path.join(BIN, "pg_basebackup"), [
    ...["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres"],
    ...["-D", dataDir, "-R", "-X", "stream", "-c", "fast"],
  ]);
  return serve(dataDir, port, settings);
}

function newDataDir(): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-pg15-"));
  if (isRoot()) execFileSync("chown", ["postgres:postgres", dataDir]);
  return dataDir;
}

function serve(dataDir: string, port: number, settings: Record<string, string>): Postgres {
  const options = [
    `-p ${port}`,
    `-k ${dataDir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ].join(" ");
  const pgCtl = path.join(BIN, "pg_ctl");
  const start = () =>
    run(pgCtl, [
      "-D",
      dataDir,
      "-l",
      path.join(dataDir, "server.log"),
      "-w",
      "-t",
      "30",
      "-o",
      options,
      "start",
    ]);
  const stop = () => run(pgCtl, ["-D", dataDir, "-m", "fast", "-w", "-t", "30", "stop"]);
  start();
  let running = true;
  return {
    port,
    dataDir,
    url: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    createDatabase(name) {
      run(path.join(BIN, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name]);
    },
    psql(name, query) {
      const args = ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", name, "-Atq", "-c", query];
      return run(path.join(BIN, "psql"), args);
    },
    stop() {
      if (running) stop();
      running = false;
    },
    start() {
      if (!running) start();
      running = true;
    },
    kill() {
      const pid = Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      process.kill(pid, "SIGKILL");
      running = false;
    },
    promote() {
      run(pgCtl, ["-D", dataDir, "-w", "-t", "30", "promote"]);
    },
    destroy() {
      try {
        if (running) stop();
      } finally {
        running = false;
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
