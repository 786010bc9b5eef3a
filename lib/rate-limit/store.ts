import { eq, lt, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { rateLimits } from "@/lib/db/schema";
import { fixedStatement } from "@/lib/db/statement";

/** A counter as the limiter reads it: points in the window and milliseconds until it ends (-1: never). */
export interface CounterState {
  points: number;
  msLeft: number;
}

const msLeft = sql<number>`coalesce(
  greatest(0, floor(extract(epoch from (${rateLimits.expiresAt} - now())) * 1000)), -1)`.mapWith(Number);

/**
 * Adds `points` to the counter `key` in one atomic statement and returns it. A missing or expired
 * counter starts a new window of `msDuration` (0: never expires); `reset` starts one whatever the state
 * (RLF's set and block). Expiry is decided by the database clock, so instances with skewed clocks agree.
 */
export async function upsertCounter(
  key: string,
  points: number,
  msDuration: number,
  reset: boolean,
): Promise<CounterState> {
  const upsert = COUNTER_UPSERTS[msDuration > 0 ? 1 : 0][reset ? 1 : 0];
  const [row] = await upsert(await executor(), { key, points, seconds: msDuration / 1000 });
  return row!;
}

/** The counter's upsert, one per kind of window and reset: built once (lib/db/statement.ts). */
function counterUpsert(expires: boolean, reset: boolean) {
  const expired = sql`${rateLimits.expiresAt} <= now()`;
  return fixedStatement((db) =>
    db
      .insert(rateLimits)
      .values({
        key: sql.placeholder("key"),
        points: sql.placeholder("points"),
        expiresAt: expires
          ? sql`now() + make_interval(secs => ${sql.placeholder("seconds")}::double precision)`
          : sql`null::timestamptz`,
      })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: reset
          ? { points: sql`excluded.points`, expiresAt: sql`excluded.expires_at` }
          : {
              points: sql`case when ${expired} then excluded.points else ${rateLimits.points} + excluded.points end`,
              expiresAt: sql`case when ${expired} then excluded.expires_at else ${rateLimits.expiresAt} end`,
            },
      })
      .returning({ points: rateLimits.points, msLeft }),
  );
}

const COUNTER_UPSERTS = [
  [counterUpsert(false, false), counterUpsert(false, true)],
  [counterUpsert(true, false), counterUpsert(true, true)],
] as const;

/** The live counter `key`, if any. */
export async function findCounter(key: string): Promise<CounterState | undefined> {
  const db = await executor();
  const [row] = await db
    .select({ points: rateLimits.points, msLeft })
    .from(rateLimits)
    .where(
      sql`${rateLimits.key} = ${key} and (${rateLimits.expiresAt} is null or ${rateLimits.expiresAt} > now())`,
    )
    .limit(1);
  return row;
}

export async function deleteCounter(key: string): Promise<boolean> {
  const db = await executor();
  const rows = await db.delete(rateLimits).where(eq(rateLimits.key, key)).returning({ key: rateLimits.key });
  return rows.length === 1;
}

/** Deletes every expired counter (of every tenant). */
export async function sweepExpiredCounters(): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(rateLimits)
    .where(lt(rateLimits.expiresAt, sql`now()`))
    .returning({ key: rateLimits.key });
  return rows.length;
}
