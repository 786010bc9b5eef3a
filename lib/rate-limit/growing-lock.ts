import { sql, type SQL, type SQLWrapper } from "drizzle-orm";

/** The first lock after a run of failures lasts a minute; each further one twice as long, at most an hour. */
export const FIRST_LOCK_SECONDS = 60;
export const LONGEST_LOCK_SECONDS = 60 * 60;

/**
 * How long the lock set after `failures` consecutive failures lasts, when every run of `every` failures
 * locks: a temporary lock a stranger cannot make last, growing with each run without a success.
 */
export function growingLockSeconds(failures: number, every: number): number {
  const run = Math.max(1, Math.floor(failures / every));
  return Math.min(FIRST_LOCK_SECONDS * 2 ** (run - 1), LONGEST_LOCK_SECONDS);
}

/** `growingLockSeconds` in SQL, as an interval, for a row's failure count column. */
export const growingLockInterval = (failures: SQLWrapper, every: number): SQL =>
  sql`make_interval(secs => least(${FIRST_LOCK_SECONDS} * power(2, greatest(${failures} / ${every}, 1) - 1), ${LONGEST_LOCK_SECONDS}))`;

/** Whole seconds a row's lock has left by the database clock (0 or less: over, or never set). */
export const lockSecondsLeft = (lockedAt: SQLWrapper, failures: SQLWrapper, every: number): SQL<number> =>
  sql<number>`coalesce(ceil(extract(epoch from (${lockedAt} + ${growingLockInterval(failures, every)} - clock_timestamp())))::int, 0)`;
