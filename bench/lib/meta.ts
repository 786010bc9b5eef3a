/** Where a benchmark ran (machine, versions, git commit) and where its results go. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { machineBusySeconds } from "./proc";
import { round } from "./stats";

/** Busy cores on the machine over `ms` (before anything of ours runs). */
export async function machineLoad(ms = 2000): Promise<number> {
  const start = machineBusySeconds();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return round((machineBusySeconds() - start) / (ms / 1000), 2);
}

function versionOf(pkg: string): string | undefined {
  try {
    const file = path.join("node_modules", pkg, "package.json");
    return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
  } catch {
    return undefined;
  }
}

function command(file: string, args: string[]): string | undefined {
  try {
    return execFileSync(file, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model,
    memoryGb: round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres: command("/usr/lib/postgresql/15/bin/postgres", ["--version"]),
    packages: Object.fromEntries(
      [
        "next",
        "@electric-sql/pglite",
        "postgres",
        "drizzle-orm",
        "@simplewebauthn/server",
        "jose",
        "tsx",
      ].map((pkg) => [pkg, versionOf(pkg)]),
    ),
    gitCommit: command("git", ["rev-parse", "--short", "HEAD"]),
    gitUncommittedFiles: command("git", ["status", "--porcelain"])?.split("\n").filter(Boolean).length,
  };
}

export function localDate(): string {
  const d = new Date();
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** Writes `bench/results/<date>[-suffix…].json` and returns its path. */
export function writeResults(suffixes: string[], results: unknown): string {
  const file = path.join("bench", "results", `${[localDate(), ...suffixes.filter(Boolean)].join("-")}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}
