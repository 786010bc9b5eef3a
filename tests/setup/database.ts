import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, inject } from "vitest";
import { closeDatabase, configureDatabase, type DatabaseOptions } from "@/lib/db";

// Each test file gets its own database connection: an in-memory PGlite, or the suite's Postgres
// when DATABASE_URL is set (npm test starts a throwaway Postgres 15 for that run). Opened lazily, so
// unit tests that never touch the database do not pay for it.
const url = process.env.DATABASE_URL;
// The in-memory PGlite starts from the migrated template the global setup dumped (tests/setup/pglite-template.ts).
const template = inject("pgliteTemplate");
const options: DatabaseOptions = url
  ? { kind: "postgres", url }
  : { kind: "pglite", ...(template ? { template } : {}) };

// Whether this file opened the database: only getDatabase() reads these options, to open it.
let opened = false;
configureDatabase(
  new Proxy(options, {
    get(target, key, receiver) {
      opened = true;
      return Reflect.get(target, key, receiver) as unknown;
    },
  }),
);

// npm test reads this record of the PGlite run to leave the files that never opened the database out of the
// Postgres run (scripts/test.ts).
const record = process.env.SESAME_TEST_DATABASE_RECORD;
const file = expect.getState().testPath;

afterAll(async () => {
  await closeDatabase();
  if (record && file) {
    fs.appendFileSync(record, `${opened ? "database" : "none"} ${path.relative(process.cwd(), file)}\n`);
  }
});
