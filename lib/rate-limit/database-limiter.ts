import { RateLimiterRes } from "rate-limiter-flexible";
import RateLimiterStoreAbstract from "rate-limiter-flexible/lib/RateLimiterStoreAbstract.js";
import { deleteCounter, findCounter, sweepExpiredCounters, upsertCounter, type CounterState } from "./store";

/** One in this many new windows also deletes every expired counter, so the table stays small. */
const SWEEP_EVERY = 64;

/**
 * rate-limiter-flexible's store limiter on Sesame's own database: the `rate_limits` table through the
 * drizzle executor (lib/db), so it runs on the `postgres` driver and on PGlite alike, inside migrations
 * we own. RLF's RateLimiterPostgres wants a `pg` client and creates its own table; RateLimiterDrizzle
 * wants the columns named `key`, `points`, `expire` and decides expiry by each instance's clock.
 *
 * Each consume is one `INSERT … ON CONFLICT DO UPDATE … RETURNING`: atomic across instances, expiry by
 * the database clock. No state lives in this object (RLF's in-memory block stays off), so every
 * instance sharing the database sees the same counters.
 */
export class RateLimiterDatabase extends RateLimiterStoreAbstract {
  constructor(options: { points: number; duration: number; keyPrefix: string }) {
    // RLF insists on a store client; ours is the executor, found per call.
    super({ ...options, storeClient: "lib/db executor" });
  }

  _getRateLimiterRes(_rlKey: string, changedPoints: number, state: CounterState): RateLimiterRes {
    return new RateLimiterRes(
      Math.max(this.points - state.points, 0),
      state.msLeft,
      state.points,
      state.points === changedPoints,
    );
  }

  async _upsert(
    rlKey: string,
    points: number,
    msDuration: number,
    forceExpire = false,
  ): Promise<CounterState> {
    const state = await upsertCounter(rlKey, points, msDuration, forceExpire);
    if (state.points === points && Math.random() * SWEEP_EVERY < 1) await sweepExpiredCounters();
    return state;
  }

  async _get(rlKey: string): Promise<CounterState | null> {
    return (await findCounter(rlKey)) ?? null;
  }

  async _delete(rlKey: string): Promise<boolean> {
    return deleteCounter(rlKey);
  }
}
