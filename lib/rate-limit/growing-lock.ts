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
