import { getDatabase } from "@/lib/db";
import { DatabaseUnavailable } from "@/lib/errors";

/** The spec's status check: the database must answer `select 1` within this time. */
export const DATABASE_TIMEOUT_MS = 2000;

/** Resolves when the database answers `select 1` in time; throws DatabaseUnavailable otherwise. */
export async function checkDatabase(): Promise<void> {
  try {
    await (await getDatabase()).ping(DATABASE_TIMEOUT_MS);
  } catch (error) {
    throw new DatabaseUnavailable(error);
  }
}

export interface Readiness {
  ready: boolean;
  checks: { database: "ok" | "unavailable"; migrations: "ok" | "pending" | "unknown" };
}

/** Ready when the database answers and every migration in `drizzle/` is applied. */
export async function checkReadiness(): Promise<Readiness> {
  try {
    await checkDatabase();
  } catch {
    return { ready: false, checks: { database: "unavailable", migrations: "unknown" } };
  }
  const applied = await (await getDatabase()).migrationsApplied().catch(() => false);
  return { ready: applied, checks: { database: "ok", migrations: applied ? "ok" : "pending" } };
}
