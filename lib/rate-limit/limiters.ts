import { RateLimiterMemory, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getDatabase } from "@/lib/db";
import { RateLimiterDatabase } from "./database-limiter";
import type { GroupLimit } from "./groups";

export type LimiterStore = "database" | "memory";

const KEY_PREFIX = "rl";

// On globalThis: Next.js may evaluate this module once per route bundle, and memory counters must be
// one per process. Database limiters hold no state; they are cached only to avoid rebuilding them.
const KEY = Symbol.for("sesame.rateLimiters");
type Holder = { [KEY]?: Map<string, RateLimiterAbstract> };
const holder = globalThis as Holder;

/** Where counters live: the database on Postgres (shared by every instance), process memory on PGlite. */
export async function limiterStore(): Promise<LimiterStore> {
  return (await getDatabase()).kind === "postgres" ? "database" : "memory";
}

/**
 * The RLF limiter for one limit. A memory limiter is one per distinct limit, so a tenant that changes
 * a limit starts new memory counters; database counters carry over.
 */
export function limiterFor(store: LimiterStore, limit: GroupLimit): RateLimiterAbstract {
  const limiters = (holder[KEY] ??= new Map());
  const id = `${store}:${limit.points}:${limit.durationSeconds}`;
  let limiter = limiters.get(id);
  if (!limiter) {
    const options = { points: limit.points, duration: limit.durationSeconds, keyPrefix: KEY_PREFIX };
    limiter = store === "database" ? new RateLimiterDatabase(options) : new RateLimiterMemory(options);
    limiters.set(id, limiter);
  }
  return limiter;
}
