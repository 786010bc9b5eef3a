import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { closeDatabase, configureDatabase, getDatabase } from "@/lib/db";

declare module "vitest" {
  export interface ProvidedContext {
    /** A dump of a freshly migrated PGlite database that each test file loads (unset on Postgres). */
    pgliteTemplate: string | undefined;
  }
}

/**
 * Global setup: on PGlite, migrate one in-memory database once per run and dump it to a file; each test
 * file's database is loaded from that file (tests/setup/database.ts) instead of running initdb and the
 * migrations again, which is most of a small file's time.
 */
export async function setup(project: TestProject): Promise<() => void> {
  if (process.env.DATABASE_URL) {
    project.provide("pgliteTemplate", undefined);
    return () => {};
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-pglite-template-"));
  const file = path.join(dir, "migrated.tar");
  configureDatabase({ kind: "pglite" });
  const handle = await getDatabase();
  const client = (handle.db as unknown as { $client: { dumpDataDir: (c: "none") => Promise<Blob> } }).$client;
  fs.writeFileSync(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
  await closeDatabase();
  project.provide("pgliteTemplate", file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
