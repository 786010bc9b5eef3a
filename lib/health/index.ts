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
  draining?: true;
  checks: { database: "ok" | "unavailable" | "unknown"; migrations: "ok" | "pending" | "unknown" };
}

// Set by scripts/server.mjs when the process got SIGTERM (plain JavaScript: it cannot import this module).
const DRAINING = Symbol.for("sesame.draining");

/** True once the process is shutting down: it finishes what it has and takes nothing new. */
export function isDraining(): boolean {
  return (globalThis as { [DRAINING]?: boolean })[DRAINING] === true;
}

/**
 * Ready when the database answers and every migration in `drizzle/` is applied; never while draining
 * (answered at once, without touching the database).
 */
export async function checkReadiness(): Promise<Readiness> {
  if (isDraining())
    return { ready: false, draining: true, checks: { database: "unknown", migrations: "unknown" } };
  try {
    await checkDatabase();
  } catch {
    return { ready: false, checks: { database: "unavailable", migrations: "unknown" } };
  }
  const applied = await (await getDatabase()).migrationsApplied().catch(() => false);
  return { ready: applied, checks: { database: "ok", migrations: applied ? "ok" : "pending" } };
}
