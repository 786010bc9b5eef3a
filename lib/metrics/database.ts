import { sql } from "drizzle-orm";
import { getDatabase, withTimeout } from "@/lib/db";

/** What a scrape reports about the database; the probe runs once per scrape (lib/metrics/registry). */
export interface DatabaseProbe {
  up: boolean;
  /** The most connections this process opens: postgres.js's `max`, 1 for PGlite (one embedded session). */
  poolMax?: number;
  /** Postgres: client connections to this database by state, from pg_stat_activity (every instance). */
  connections?: Record<string, number>;
}

const TIMEOUT_MS = 2000;

/**
 * Asks the database, within 2 s: on Postgres, pg_stat_activity's client connections to Sesame's database
 * by state (the probe's own excluded); on PGlite, `select 1`. postgres.js and PGlite expose no pool
 * state of their own (open or busy connections, queued queries), so the server's view is what there is:
 * it counts every instance sharing the database, and `idle in transaction` or a rising `active` is what
 * to watch. A pool so busy that the probe waits more than 2 s reads as `up 0`.
 */
export async function probeDatabase(): Promise<DatabaseProbe> {
  try {
    const handle = await getDatabase();
    if (handle.kind === "pglite") {
      await handle.ping(TIMEOUT_MS);
      return { up: true, poolMax: 1 };
    }
    const result = await withTimeout(
      handle.db.execute(sql`
        select coalesce(state, 'unknown') as state, count(*)::int as count
        from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()
        group by 1`),
      TIMEOUT_MS,
      "The database",
    );
    const rows = result as unknown as { state: string; count: number }[];
    const connections: Record<string, number> = {};
    for (const row of rows) connections[row.state] = Number(row.count);
    return { up: true, poolMax: poolSize(handle.db), connections };
  } catch {
    return { up: false };
  }
}

/** postgres.js keeps its options on the client drizzle holds (`$client.options.max`). */
function poolSize(db: unknown): number | undefined {
  const max = (db as { $client?: { options?: { max?: unknown } } }).$client?.options?.max;
  return typeof max === "number" ? max : undefined;
}
