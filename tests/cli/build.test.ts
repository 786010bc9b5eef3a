import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildIfNeeded, buildIsCurrent, writeBuildStamp } from "@/scripts/lib/build";
import { runningServers, serversDirectory } from "@/scripts/lib/running-servers.mjs";

/**
 * scripts/lib/build.ts on a folder of its own: `npm run build` stamps the build so `npm start` does not
 * build again, and no build starts under a server or another build running from the same folder.
 */
const registry = path.resolve("scripts/lib/running-servers.mjs");
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

function folder(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-build-"));
  fs.mkdirSync(path.join(root, "app"));
  fs.writeFileSync(path.join(root, "app", "page.tsx"), "export default 1;\n");
  fs.mkdirSync(path.join(root, ".next"));
  fs.writeFileSync(path.join(root, ".next", "BUILD_ID"), "b1");
  fs.mkdirSync(path.join(root, "dist", "elements"), { recursive: true });
  fs.writeFileSync(path.join(root, "dist", "elements", "sesame-elements.js"), "");
  return root;
}

/** A process registered as a server of `root`, as scripts/server.mjs registers itself. */
async function serverIn(root: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(registry)}); m.registerServer(${JSON.stringify(root)}); ` +
        "process.stdout.write('up'); setInterval(() => {}, 1000);",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  children.push(child);
  await new Promise((resolve) => child.stdout!.once("data", resolve));
  return child.pid!;
}

function run(root: string) {
  const lines: string[] = [];
  const ok = buildIfNeeded((line) => lines.push(line), root);
  return { ok, log: lines.join("\n") };
}

describe("build when needed", () => {
  it("serves a stamped build without building again, and sees a changed source", () => {
    const root = folder();
    expect(buildIsCurrent(root)).toBe(false);
    writeBuildStamp(root);
    expect(buildIsCurrent(root)).toBe(true);
    expect(run(root)).toEqual({ ok: true, log: "The build is up to date." });
    fs.writeFileSync(path.join(root, "app", "page.tsx"), "export default 2;\n");
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("refuses to rebuild under a server running from the folder, and touches nothing", async () => {
    const root = folder();
    const pid = await serverIn(root);
    expect(runningServers(root)).toEqual([pid]);
    const { ok, log } = run(root);
    expect(ok).toBe(false);
    expect(log).toContain(`Sesame is running from this folder (server pid ${pid})`);
    expect(log).not.toContain("Building");
    expect(fs.readFileSync(path.join(root, ".next", "BUILD_ID"), "utf8")).toBe("b1");
    expect(fs.existsSync(path.join(root, ".sesame", "build.lock"))).toBe(false);
  });

  it("lets a running server be when its build is current", async () => {
    const root = folder();
    writeBuildStamp(root);
    await serverIn(root);
    expect(run(root)).toEqual({ ok: true, log: "The build is up to date." });
  });

  it("forgets a server that was killed, and one that exited removes its own entry", async () => {
    const root = folder();
    const pid = await serverIn(root);
    process.kill(pid, "SIGKILL");
    await new Promise((resolve) => children[0]!.once("exit", resolve));
    expect(fs.existsSync(path.join(serversDirectory(root), String(pid)))).toBe(true);
    expect(runningServers(root)).toEqual([]);
    expect(fs.readdirSync(serversDirectory(root))).toEqual([]);

    const exited = spawnSync(process.execPath, [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(registry)}); m.registerServer(${JSON.stringify(root)});`,
    ]);
    expect(exited.status).toBe(0);
    expect(fs.readdirSync(serversDirectory(root))).toEqual([]);
  });

  it("refuses beside another build, and takes over the lock of a build that was killed", () => {
    const root = folder();
    const lock = path.join(root, ".sesame", "build.lock");
    fs.mkdirSync(path.dirname(lock));
    fs.writeFileSync(lock, `${process.pid}\n`);
    const beside = run(root);
    expect(beside.ok).toBe(false);
    expect(beside.log).toContain(`Another build (pid ${process.pid}) is running in this folder`);
    expect(fs.readFileSync(lock, "utf8")).toBe(`${process.pid}\n`);

    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    fs.writeFileSync(lock, `${gone}\n`);
    // The folder has no node_modules, so the build itself fails at once: what matters is that it started.
    const after = run(root);
    expect(after.log).toContain("Building Sesame");
    expect(after.ok).toBe(false);
    expect(fs.existsSync(lock)).toBe(false);
  });
});
