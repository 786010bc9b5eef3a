import { afterAll } from "vitest";
import { closeDatabase, configureDatabase } from "@/lib/db";

// Each test file gets its own database connection: an in-memory PGlite, or the suite's Postgres
// when DATABASE_URL is set (npm test starts a throwaway Postgres 15 for that run). Opened lazily, so
// unit tests that never touch the database do not pay for it.
const url = process.env.DATABASE_URL;
configureDatabase(url ? { kind: "postgres", url } : { kind: "pglite" });

afterAll(async () => {
  await closeDatabase();
});
