/**
 * `npm test`: every check CI runs, in order, with one closing line `N passed, N failed`.
 *   static checks (tsc and the generated elements declarations, ESLint, dependency-cruiser, Prettier) → build → vitest on PGlite → vitest on a throwaway
 *   Postgres 15 → Playwright e2e in Chromium against servers on PGlite and on that Postgres.
 * Installs Debian's chromium and postgresql-15 with apt when they are missing.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { buildIfNeeded } from "./lib/build";
import { freePort, startPostgres, type Postgres } from "./lib/postgres";

const REPORTS = "reports";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

interface Tally {
  name: string;
  passed: number;
  failed: number;
}
const tallies: Tally[] = [];

function heading(text: string): void {
  process.stdout.write(`\n━━ ${text} ${"━".repeat(Math.max(0, 70 - text.length))}\n`);
}

function run(command: string, args: string[], env: Record<string, string> = {}): boolean {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

/** Runs a command with its output kept, to print it whole once it ends. */
function runQuiet(command: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ ok: code === 0, output }));
    child.on("error", (error) => resolve({ ok: false, output: String(error) }));
  });
}

/**
 * The static checks run side by side (each is mostly one core: run in turn they left the other idle), their
 * output printed in order once all have ended. Each counts as one test.
 */
async function staticChecks(checks: { name: string; commands: [string, string[]][] }[]): Promise<void> {
  const results = await Promise.all(
    checks.map(async ({ commands }) => {
      let output = "";
      for (const [command, args] of commands) {
        const result = await runQuiet(command, args);
        output += result.output;
        if (!result.ok) return { ok: false, output };
      }
      return { ok: true, output };
    }),
  );
  checks.forEach(({ name }, i) => {
    heading(name);
    process.stdout.write(results[i]!.output);
    tallies.push({ name, passed: results[i]!.ok ? 1 : 0, failed: results[i]!.ok ? 0 : 1 });
  });
}

/** A check that passes or fails as a whole counts as one test. */
function check(name: string, work: () => boolean): void {
  heading(name);
  const ok = work();
  tallies.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
}

function vitest(name: string, env: Record<string, string>): void {
  heading(name);
  const output = `${REPORTS}/${name.replace(/\W+/g, "-")}.json`;
  fs.rmSync(output, { force: true });
  run(
    "node_modules/.bin/vitest",
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${output}`],
    env,
  );
  if (!fs.existsSync(output)) {
    tallies.push({ name, passed: 0, failed: 1 });
    return;
  }
  const report = JSON.parse(fs.readFileSync(output, "utf8"));
  // A file that fails to load counts as a failure even though it ran no test.
  const brokenFiles = (report.testResults as { status: string; assertionResults: unknown[] }[]).filter(
    (file) => file.status === "failed" && file.assertionResults.length === 0,
  ).length;
  tallies.push({ name, passed: report.numPassedTests, failed: report.numFailedTests + brokenFiles });
}

function playwright(env: Record<string, string>): void {
  const name = "playwright (Chromium)";
  heading(name);
  const output = `${REPORTS}/playwright.json`;
  fs.rmSync(output, { force: true });
  run("node_modules/.bin/playwright", ["test", "--reporter=list,json"], {
    ...env,
    PLAYWRIGHT_JSON_OUTPUT_NAME: output,
  });
  if (!fs.existsSync(output)) {
    tallies.push({ name, passed: 0, failed: 1 });
    return;
  }
  const { stats, errors } = JSON.parse(fs.readFileSync(output, "utf8"));
  tallies.push({ name, passed: stats.expected, failed: stats.unexpected + (errors?.length ?? 0) });
}

function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  heading("installing chromium (apt-get)");
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}

async function main(): Promise<number> {
  fs.mkdirSync(REPORTS, { recursive: true });
  ensureChromium();

  await staticChecks([
    {
      name: "typecheck (tsc, elements declarations)",
      commands: [
        ["node_modules/.bin/tsc", ["--noEmit"]],
        ["node_modules/.bin/tsx", ["scripts/elements-declarations.ts", "--check"]],
      ],
    },
    { name: "lint (eslint)", commands: [["node_modules/.bin/eslint", ["."]]] },
    {
      name: "dependencies (dependency-cruiser: layers, cycles, owners)",
      commands: [
        [
          "node_modules/.bin/depcruise",
          [
            "--config",
            ".dependency-cruiser.cjs",
            "--output-type",
            "err",
            "lib",
            "app",
            "components",
            "elements",
            "cli",
          ],
        ],
      ],
    },
    { name: "format (prettier)", commands: [["node_modules/.bin/prettier", ["--check", "."]]] },
  ]);
  check("build (next build)", () => buildIfNeeded((line) => process.stdout.write(`${line}\n`)));

  vitest("vitest on PGlite", { DATABASE_URL: "" });

  let postgres: Postgres | undefined;
  try {
    heading("starting a throwaway Postgres 15");
    postgres = await startPostgres();
    postgres.createDatabase("sesame_vitest");
    postgres.createDatabase("sesame_e2e");
    process.stdout.write(`Postgres 15 on 127.0.0.1:${postgres.port}\n`);
    vitest("vitest on Postgres 15", { DATABASE_URL: postgres.url("sesame_vitest") });
    playwright({
      E2E_DATABASE_URL: postgres.url("sesame_e2e"),
      E2E_PGLITE_PORT: String(await freePort()),
      E2E_POSTGRES_PORT: String(await freePort()),
      E2E_POSTGRES_SECOND_PORT: String(await freePort()),
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    tallies.push({ name: "postgres suites", passed: 0, failed: 1 });
  } finally {
    postgres?.destroy();
  }

  heading("summary");
  for (const tally of tallies)
    process.stdout.write(`${tally.name}: ${tally.passed} passed, ${tally.failed} failed\n`);
  const passed = tallies.reduce((sum, t) => sum + t.passed, 0);
  const failed = tallies.reduce((sum, t) => sum + t.failed, 0);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.stdout.write("0 passed, 1 failed\n");
    process.exit(1);
  },
);
