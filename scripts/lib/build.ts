/**
 * "Build when needed": a fingerprint of everything `next build` reads is stored next to the build;
 * when the sources change, or there is no build, `next build` runs again.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

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

function files(entry: string): string[] {
  if (!fs.existsSync(entry)) return [];
  if (!fs.statSync(entry).isDirectory()) return [entry];
  return fs
    .readdirSync(entry, { withFileTypes: true })
    .flatMap((child) => files(path.join(entry, child.name)))
    .filter((file) => !/\.test\.tsx?$/.test(file));
}

export function sourceFingerprint(): string {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap(files).sort()) {
    hash.update(file).update("\0").update(fs.readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

export function buildIsCurrent(): boolean {
  return (
    fs.existsSync(path.join(".next", "BUILD_ID")) &&
    fs.existsSync(path.join("dist", "elements", "sesame-elements.js")) &&
    fs.existsSync(STAMP) &&
    fs.readFileSync(STAMP, "utf8") === sourceFingerprint()
  );
}

/** Runs `next build` unless the current build matches the sources. Returns false when the build failed. */
export function buildIfNeeded(
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): boolean {
  if (buildIsCurrent()) {
    log("The build is up to date.");
    return true;
  }
  log("Building Sesame (elements bundle, then next build) …");
  const elements = spawnSync(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "scripts/build-elements.ts"],
    {
      stdio: "inherit",
    },
  );
  if (elements.status !== 0) return false;
  const result = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) return false;
  // `next build` may rewrite tsconfig.json, so fingerprint after it.
  fs.writeFileSync(STAMP, sourceFingerprint());
  return true;
}
