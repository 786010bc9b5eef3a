import { AsyncLocalStorage } from "node:async_hooks";
import { DatabaseUnavailable } from "@/lib/errors";

/**
 * How long one request's database work may take in all, counted from the request's start. Past it the
 * request is answered 503 with Retry-After (docs/operations.md) instead of waiting for a connection
 * that is not coming: the answer stays within 5 s even while the database is away. A statement that
 * is still running when the deadline passes keeps running on its connection (a write may still land;
 * the caller was told 503, as after any timeout).
 */
export const REQUEST_DATABASE_DEADLINE_MS = 4000;

/**
 * Postgres connection settings of the request pool. The default reconnect backoff of postgres.js grows
 * with every failed attempt, shared by the whole pool, up to 10–20 s per attempt: after a minute's
 * outage a statement handed to a closed connection waited that long. A short, capped backoff lets a
 * refused connection fail in milliseconds (and reconnect within half a second of the database coming
 * back); a connect that hangs (a host gone from the network) ends after `connectTimeoutSeconds`.
 */
export const POOL_SETTINGS = {
  connectTimeoutSeconds: 3,
  /** Seconds before reconnect attempt `retries` (1, 2, …): 50 ms more per failed attempt, 500 ms at most. */
  backoff: (retries: number) => Math.min(0.05 * retries, 0.5),
} as const;

interface Deadline {
  /** `performance.now()` by which the request's database work must be done. */
  at: number;
  /** False once the request has its answer (a streamed body's statements are not bounded by it). */
  open: boolean;
}

// On globalThis: route bundles and the instrumentation bundle each evaluate this module, but the
// statements the database runs (patched once, in whichever bundle opened it) must see the deadline
// the request's route() set.
const KEY = Symbol.for("sesame.databaseDeadline");
const holder = globalThis as { [KEY]?: AsyncLocalStorage<Deadline> };
const deadlines = (holder[KEY] ??= new AsyncLocalStorage<Deadline>());

/**
 * Runs `work` (a request's handling) with a deadline for its database work: every statement and
 * transaction it starts must end within `ms` of now, or fails with DATABASE_UNAVAILABLE. The deadline
 * closes when `work` settles.
 */
export async function withDatabaseDeadline<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const deadline: Deadline = { at: performance.now() + ms, open: true };
  try {
    return await deadlines.run(deadline, work);
  } finally {
    deadline.open = false;
  }
}

/** Every database failure of a request as DATABASE_UNAVAILABLE (503 with Retry-After), its cause kept. */
export function unavailable(cause: unknown): DatabaseUnavailable {
  return cause instanceof DatabaseUnavailable ? cause : new DatabaseUnavailable(cause);
}

/** `promise`, or DATABASE_UNAVAILABLE once the current request's deadline has passed (no deadline: as is). */
export function withinDeadline<T>(promise: Promise<T>): Promise<T> {
  const deadline = deadlines.getStore();
  if (!deadline?.open) return promise;
  const left = deadline.at - performance.now();
  // The statement runs on regardless; its late failure must not become an unhandled rejection.
  promise.catch(() => {});
  if (left <= 0) return Promise.reject(unavailable(new Error("the request's database deadline had passed")));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(unavailable(new Error(`the database did not answer within the request's deadline`))),
      left,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The driver's own error under drizzle's wrapper (DrizzleQueryError keeps it as `cause`). */
function rootOf(error: unknown): { code?: unknown } {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const code = (current as { code?: unknown } | null)?.code;
    if (typeof code === "string") return current as { code: string };
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (cause === undefined) break;
    current = cause;
  }
  return {};
}

/**
 * Failures that happen before a statement is written to a connection: the connection could not be
 * opened (refused, timed out, no such host) or the server refused it at start-up (starting, shutting
 * down, too many connections). Such a statement provably never reached the server, so trying it once
 * more is safe.
 */
const NEVER_SENT = new Set([
  "ECONNREFUSED",
  "CONNECT_TIMEOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
]);

/**
 * Failures that say the database (or the connection to it) is away rather than that the statement was
 * wrong: the connection ended under the statement, the server shut down or was terminated, or the server
 * is a read-only standby (a failover: the pool must find the new primary).
 */
const AWAY = new Set([
  ...NEVER_SENT,
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "57P01", // admin_shutdown (pg_terminate_backend, a fast shutdown)
  "57P02", // crash_shutdown
  "25006", // read_only_sql_transaction: connected to a standby
]);

/** True when `error` proves the statement never reached the server (it can be sent once more). */
export function neverReachedServer(error: unknown): boolean {
  const { code } = rootOf(error);
  return typeof code === "string" && NEVER_SENT.has(code);
}

/** True when `error` means the database is unreachable or went away (answered 503, never 500). */
export function isDatabaseAway(error: unknown): boolean {
  if (error instanceof DatabaseUnavailable) return true;
  const { code } = rootOf(error);
  // Class 08: connection exceptions.
  return typeof code === "string" && (AWAY.has(code) || /^08[0-9A-Z]{3}$/.test(code));
}

/**
 * Runs one statement (or one transaction) of the request pool: within the request's deadline, once more
 * when the first attempt provably never reached the server, and with DATABASE_UNAVAILABLE for any
 * failure that means the database is away. `canRetry` says whether trying again is still safe (a
 * transaction: only while its work has not started).
 */
export async function guarded<T>(run: () => Promise<T>, canRetry: () => boolean = () => true): Promise<T> {
  try {
    return await withinDeadline(run());
  } catch (first) {
    if (!(first instanceof DatabaseUnavailable) && neverReachedServer(first) && canRetry()) {
      try {
        return await withinDeadline(run());
      } catch (second) {
        throw isDatabaseAway(second) ? unavailable(second) : second;
      }
    }
    throw isDatabaseAway(first) ? unavailable(first) : first;
  }
}
