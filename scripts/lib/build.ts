/**
 * "Build when needed": a fingerprint of everything `next build` reads is stored next to the build;
 * when the sources change, or there is no build, `next build` runs again. `npm run build` writes the
 * same fingerprint (scripts/build.ts), so the `npm start` after it does not build a second time.
 *
 * A build never runs under a running server from the same folder (it would replace the `.next` files
 * that server still loads; scripts/lib/running-servers.mjs) nor beside another build (`.sesame/build.lock`):
 * it is refused with a message saying which process is in the way.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isAlive, runningServers } from "./running-servers.mjs";

const INPUTS = [
  "app",
  "components",
  "elements",
  "lib",
  "public",
  "instrumentation.ts",
  "next.config.js",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];
const STAMP = path.join(".next", "sesame-build-fingerprint");
const LOCK = path.join(".sesame", "build.lock");

type Log = (line: string) => void;
const stderr: Log = (line) => process.stderr.write(`${line}\n`);

function files(root: string, entry: string): string[] {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .flatMap((child) => files(root, path.join(entry, child.name)))
    .filter((file) => !/\.test\.tsx?$/.test(file));
}

export function sourceFingerprint(root = process.cwd()): string {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap((entry) => files(root, entry)).sort()) {
    hash
      .update(file)
      .update("\0")
      .update(fs.readFileSync(path.join(root, file)))
      .update("\0");
  }
  return hash.digest("hex");
}

/** Records that the build in `root` was made from the current sources (after a successful build). */
export function writeBuildStamp(root = process.cwd()): void {
  fs.writeFileSync(path.join(root, STAMP), sourceFingerprint(root));
}

export function buildIsCurrent(root = process.cwd()): boolean {
  const stamp = path.join(root, STAMP);
  return (
    fs.existsSync(path.join(root, ".next", "BUILD_ID")) &&
    fs.existsSync(path.join(root, "dist", "elements", "sesame-elements.js")) &&
    fs.existsSync(stamp) &&
    fs.readFileSync(stamp, "utf8") === sourceFingerprint(root)
  );
}

/**
 * Takes the build lock of `root` (`release` gives it back), or says why a build may not start there now:
 * a server runs from it, or another build does.
 */
export function acquireBuild(root = process.cwd()): { refused: string } | { release: () => void } {
  const servers = runningServers(root);
  if (servers.length > 0) {
    return {
      refused:
        `Sesame is running from this folder (server pid ${servers.join(", ")}) and the build is out of ` +
        "date; not rebuilding under a running server. Stop it (SIGTERM), then run npm start or npm run build again.",
    };
  }
  const lock = path.join(root, LOCK);
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, `${process.pid}\n`, { flag: "wx" });
      return { release: () => fs.rmSync(lock, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(fs.readFileSync(lock, "utf8").trim());
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        return {
          refused: `Another build (pid ${holder}) is running in this folder; wait for it, then try again.`,
        };
      }
      fs.rmSync(lock, { force: true }); // left by a build that was killed
    }
  }
  return { refused: `Could not take the build lock ${LOCK}; remove it if no build is running.` };
}

/** Builds the elements bundle, then `next build`, then writes the fingerprint. False when it failed. */
function runBuild(root: string, log: Log): boolean {
  log("Building Sesame (elements bundle, then next build) …");
  const elements = spawnSync(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "scripts/build-elements.ts"],
    { stdio: "inherit", cwd: root },
  );
  if (elements.status !== 0) return false;
  const result = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: "inherit",
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) return false;
  // `next build` may rewrite tsconfig.json, so fingerprint after it.
  writeBuildStamp(root);
  return true;
}

/** `npm run build`: always builds (unless refused), and stamps the build. False when refused or failed. */
export function build(log: Log = stderr, root = process.cwd()): boolean {
  const lock = acquireBuild(root);
  if ("refused" in lock) {
    log(lock.refused);
    return false;
  }
  try {
    return runBuild(root, log);
  } finally {
    lock.release();
  }
}

/**
 * Runs the build unless the current build matches the sources. Returns false when the build failed or
 * was refused (a server or another build running from the same folder).
 */
export function buildIfNeeded(log: Log = stderr, root = process.cwd()): boolean {
  if (buildIsCurrent(root)) {
    log("The build is up to date.");
    return true;
  }
  return build(log, root);
}
