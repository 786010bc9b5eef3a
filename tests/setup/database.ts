import { afterAll, inject } from "vitest";
import { closeDatabase, configureDatabase } from "@/lib/db";

// Each test file gets its own database connection: an in-memory PGlite, or the suite's Postgres
// when DATABASE_URL is set (npm test starts a throwaway Postgres 15 for that run). Opened lazily, so
// unit tests that never touch the database do not pay for it.
const url = process.env.DATABASE_URL;
// The in-memory PGlite starts from the migrated template the global setup dumped (tests/setup/pglite-template.ts).
const template = inject("pgliteTemplate");
configureDatabase(url ? { kind: "postgres", url } : { kind: "pglite", ...(template ? { template } : {}) });

afterAll(async () => {
  await closeDatabase();
});
