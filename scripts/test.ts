/**
 * `npm test`: every check CI runs, in order, with one closing line `N passed, N failed`.
 *   static checks (tsc and the generated elements declarations, ESLint, dependency-cruiser, Prettier) → build → vitest on PGlite → vitest on a throwaway
 *   Postgres 15 → Playwright e2e in Chromium against servers on PGlite and on that Postgres.
 * Installs Debian's chromium and postgresql-15 with apt when they are missing.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
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

/** A vitest run longer than this is stuck (a hung worker): it is ended and counts as a failure. */
const VITEST_TIMEOUT_MS = 40 * 60_000;

/**
 * One vitest run (both projects of vitest.config.ts: the shared one and the isolated one) with its tally
 * from the JSON report. A file that fails to load, a run that exits non-zero with no failed test (an
 * unhandled error, a crashed worker), a run that times out or leaves no report: each counts as a failure.
 */
const vitestReport = (name: string) => `${REPORTS}/${name.replace(/\W+/g, "-")}.json`;

function vitest(name: string, env: Record<string, string>): void {
  heading(name);
  const output = vitestReport(name);
  fs.rmSync(output, { force: true });
  const result = spawnSync(
    "node_modules/.bin/vitest",
    ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${output}`],
    { stdio: "inherit", env: { ...process.env, ...env }, timeout: VITEST_TIMEOUT_MS, killSignal: "SIGKILL" },
  );
  if (result.error) process.stderr.write(`${name}: ${result.error.message}\n`);
  if (!fs.existsSync(output)) {
    tallies.push({ name, passed: 0, failed: 1 });
    return;
  }
  const report = JSON.parse(fs.readFileSync(output, "utf8"));
  // A file that fails to load counts as a failure even though it ran no test.
  const brokenFiles = (report.testResults as { status: string; assertionResults: unknown[] }[]).filter(
    (file) => file.status === "failed" && file.assertionResults.length === 0,
  ).length;
  let failed = report.numFailedTests + brokenFiles;
  if (result.status !== 0 && failed === 0) {
    process.stderr.write(
      `${name}: vitest exited with ${result.status ?? result.signal} and no failed test\n`,
    );
    failed = 1;
  }
  tallies.push({ name, passed: report.numPassedTests, failed });
}

/**
 * Test files that never open the database need not run again on Postgres: they ran on PGlite, and nothing
 * in them depends on which database there is. The PGlite run records, per file, whether it opened the
 * database (tests/setup/database.ts writes SESAME_TEST_DATABASE_RECORD). A file is left out of the Postgres
 * run only when that record says "none", every one of its tests passed on PGlite (none skipped: a test may
 * be for Postgres only), and its source names neither the database (DATABASE_URL, a connection of its own)
 * nor a child process (which would inherit DATABASE_URL). A file with no record (it crashed before its
 * end, or the record is missing) runs on Postgres.
 */
const ON_POSTGRES_ANYWAY =
  /DATABASE_URL|openDatabase|configureDatabase|closeDatabase|child_process|spawn|execFile|fork\(/;
function filesWithoutDatabase(record: string, pgliteReport: string): string[] {
  if (!fs.existsSync(record) || !fs.existsSync(pgliteReport)) return [];
  const allPassed = new Set(
    (
      JSON.parse(fs.readFileSync(pgliteReport, "utf8")).testResults as {
        name: string;
        assertionResults: { status: string }[];
      }[]
    )
      .filter((file) => file.assertionResults.length > 0)
      .filter((file) => file.assertionResults.every((test) => test.status === "passed"))
      .map((file) => path.relative(process.cwd(), file.name)),
  );
  const uses = new Map<string, Set<string>>();
  for (const line of fs.readFileSync(record, "utf8").split("\n").filter(Boolean)) {
    const space = line.indexOf(" ");
    const file = line.slice(space + 1);
    uses.set(file, (uses.get(file) ?? new Set()).add(line.slice(0, space)));
  }
  return [...uses]
    .filter(([file, use]) => use.size === 1 && use.has("none") && allPassed.has(file))
    .map(([file]) => file)
    .filter((file) => !ON_POSTGRES_ANYWAY.test(fs.readFileSync(file, "utf8")))
    .sort();
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

  const record = `${REPORTS}/vitest-database-use.txt`;
  fs.rmSync(record, { force: true });
  vitest("vitest on PGlite", { DATABASE_URL: "", SESAME_TEST_DATABASE_RECORD: record });

  let postgres: Postgres | undefined;
  try {
    heading("starting a throwaway Postgres 15");
    postgres = await startPostgres();
    postgres.createDatabase("sesame_vitest");
    postgres.createDatabase("sesame_e2e");
    process.stdout.write(`Postgres 15 on 127.0.0.1:${postgres.port}\n`);
    const skip = filesWithoutDatabase(record, vitestReport("vitest on PGlite"));
    const skipList = `${REPORTS}/vitest-postgres-skip.txt`;
    fs.writeFileSync(skipList, skip.map((file) => `${file}\n`).join(""));
    process.stdout.write(
      `${skip.length} test files never open the database (they ran on PGlite above); the rest run on Postgres (${skipList})\n`,
    );
    vitest("vitest on Postgres 15", {
      DATABASE_URL: postgres.url("sesame_vitest"),
      SESAME_VITEST_SKIP: skipList,
    });
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
