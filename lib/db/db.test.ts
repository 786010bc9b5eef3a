import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { recordAuditEvent, listAuditEvents } from "@/lib/audit";
import { createTestTenant } from "@/tests/helpers/tenants";
import { DatabaseLocked, getDatabase, openDatabase, transaction } from ".";
import { acquireDataDirLock } from "./pglite-lock";

describe("transaction()", () => {
  it("commits the work of every store call inside it", async () => {
    const { tenant } = await createTestTenant();
    await transaction(async () => {
      await recordAuditEvent(tenant.id, { type: "tx.one" });
      await recordAuditEvent(tenant.id, { type: "tx.two" });
    });
    const types = (await listAuditEvents(tenant.id)).items.map((item) => item.type);
    expect(types).toEqual(expect.arrayContaining(["tx.one", "tx.two"]));
  });

  it("rolls everything back when the work throws, nested calls included", async () => {
    const { tenant } = await createTestTenant();
    await expect(
      transaction(async () => {
        await recordAuditEvent(tenant.id, { type: "tx.lost" });
        await transaction(async () => recordAuditEvent(tenant.id, { type: "tx.lost.inner" }));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const types = (await listAuditEvents(tenant.id)).items.map((item) => item.type);
    expect(types).not.toContain("tx.lost");
    expect(types).not.toContain("tx.lost.inner");
  });
});

describe("migrations", () => {
  it("are all applied, and applying them again changes nothing", async () => {
    const current = await getDatabase();
    expect(await current.migrationsApplied()).toBe(true);
    const again = await openDatabase(
      current.kind === "postgres"
        ? { kind: "postgres", url: process.env.DATABASE_URL as string }
        : { kind: "pglite" },
    );
    try {
      expect(await again.migrationsApplied()).toBe(true);
    } finally {
      await again.close();
    }
  });

  it("readiness notices a migration that is not applied", async () => {
    const handle = await openDatabase({ kind: "pglite" });
    try {
      await handle.db.execute(sql`delete from drizzle.__drizzle_migrations`);
      expect(await handle.migrationsApplied()).toBe(false);
    } finally {
      await handle.close();
    }
  });
});

describe("the embedded database lock", () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill("SIGKILL");
    child = undefined;
  });

  const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "sesame-lock-"));

  it("refuses a second process while the first holds the folder", async () => {
    const dir = tempDir();
    const lockPath = path.join(dir, "pglite.lock");
    // A real second process that takes the lock the same way and stays alive.
    child = spawn(process.execPath, [
      "-e",
      `require("fs").writeFileSync(${JSON.stringify(lockPath)}, JSON.stringify({pid: process.pid, hostname: require("os").hostname(), startedAt: "now"}), {flag: "wx"}); setInterval(() => {}, 1000);`,
    ]);
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => fs.existsSync(lockPath) && (clearInterval(poll), resolve()), 20);
    });
    expect(() => acquireDataDirLock(lockPath, path.join(dir, "pglite"))).toThrow(DatabaseLocked);
    expect(() => acquireDataDirLock(lockPath, path.join(dir, "pglite"))).toThrow(
      /in use by another Sesame process/,
    );
    await expect(openDatabase({ kind: "pglite", dir: path.join(dir, "pglite") })).rejects.toThrow(
      DatabaseLocked,
    );
  });

  it("takes over a lock left by a process that died, and releases it on close", async () => {
    const dir = tempDir();
    const pgliteDir = path.join(dir, "pglite");
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => dead.on("exit", resolve));
    fs.writeFileSync(
      `${pgliteDir}.lock`,
      JSON.stringify({ pid: dead.pid, hostname: os.hostname(), startedAt: "earlier" }),
    );
    const handle = await openDatabase({ kind: "pglite", dir: pgliteDir });
    expect(JSON.parse(fs.readFileSync(`${pgliteDir}.lock`, "utf8")).pid).toBe(process.pid);
    await handle.close();
    expect(fs.existsSync(`${pgliteDir}.lock`)).toBe(false);
  });
});
