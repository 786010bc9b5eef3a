import { AsyncLocalStorage } from "node:async_hooks";
import { DatabaseUnavailable } from "@/lib/errors";

/**
 * How long one request's database work may take in all, counted from its first statement (what the
 * request does before, such as loading its route's code on a cold instance, does not count). Past it the
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

/**
 * A request's statement is refused at once (DATABASE_UNAVAILABLE) while this many statements of the
 * process already wait for the pool or the server: beyond it, queueing only makes every answer late.
 * Work outside a request (the webhook worker, sweeps) is never refused.
 */
export const MAX_QUEUED_STATEMENTS = 512;

interface Deadline {
  /** How long the request's database work may take. */
  budgetMs: number;
  /** `performance.now()` by which it must be done: set by the first statement. */
  at?: number;
  /** False once the request has its answer (a streamed body's statements are not bounded by it). */
  open: boolean;
}

// On globalThis: route bundles and the instrumentation bundle each evaluate this module, but the
// statements the database runs (patched once, in whichever bundle opened it) must see the deadline
// the request's route() set.
const KEY = Symbol.for("sesame.databaseDeadline");
const STATS = Symbol.for("sesame.databaseWork");
const holder = globalThis as { [KEY]?: AsyncLocalStorage<Deadline>; [STATS]?: DatabaseWork };
const deadlines = (holder[KEY] ??= new AsyncLocalStorage<Deadline>());

/** This process's database work on Postgres, for the metrics (lib/metrics reads it at scrape time). */
export interface DatabaseWork {
  /** Statements and transactions handed to the pool and not yet answered (above the pool's size: queued). */
  inFlight: number;
  /** Statements and transactions failed as DATABASE_UNAVAILABLE (the database away, or the deadline passed). */
  unavailable: number;
  /** Of those, the ones ended by a request's deadline. */
  deadlineExceeded: number;
  /** Statements sent a second time because the first attempt never reached the server. */
  retried: number;
  /** Statements of requests refused because {@link MAX_QUEUED_STATEMENTS} were waiting already. */
  shed: number;
}

export function databaseWork(): DatabaseWork {
  return (holder[STATS] ??= { inFlight: 0, unavailable: 0, deadlineExceeded: 0, retried: 0, shed: 0 });
}

/**
 * Runs `work` (a request's handling) with a deadline for its database work: every statement and
 * transaction it starts must end within `ms` of its first one, or fails with DATABASE_UNAVAILABLE. The deadline
 * closes when `work` settles.
 */
export async function withDatabaseDeadline<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const deadline: Deadline = { budgetMs: ms, open: true };
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
  deadline.at ??= performance.now() + deadline.budgetMs;
  const left = deadline.at - performance.now();
  // The statement runs on regardless; its late failure must not become an unhandled rejection.
  promise.catch(() => {});
  if (left <= 0) {
    databaseWork().deadlineExceeded++;
    return Promise.reject(unavailable(new Error("the request's database deadline had passed")));
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      databaseWork().deadlineExceeded++;
      reject(unavailable(new Error(`the database did not answer within the request's deadline`)));
    }, left);
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
  // Failed before the server began it: pipelined behind the running statement on a connection that
  // closed, or failed before it was written (markNeverExecuted).
  "STATEMENT_NOT_EXECUTED",
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
  // Made by another bundle's copy of lib/errors (not `instanceof` this one's).
  "DATABASE_UNAVAILABLE",
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

/**
 * The connection ended under the statement. On a statement that had begun on the server, it may have
 * run; on a transaction's `BEGIN` (before any of its work), nothing ran that a second attempt repeats.
 */
const CONNECTION_LOST = new Set(["CONNECTION_CLOSED", "ECONNRESET", "EPIPE", "57P01", "57P02"]);

/** True when `error` proves the statement never reached the server (it can be sent once more). */
export function neverReachedServer(error: unknown): boolean {
  const { code } = rootOf(error);
  return typeof code === "string" && NEVER_SENT.has(code);
}

/** True when `error` says the connection ended under the statement (or never opened). */
export function connectionLost(error: unknown): boolean {
  const { code } = rootOf(error);
  return typeof code === "string" && (CONNECTION_LOST.has(code) || NEVER_SENT.has(code));
}

/**
 * Marks the pool's statements that a closed connection failed before the server began them, with the
 * code STATEMENT_NOT_EXECUTED, which `guarded` sends once more. postgres.js tells a statement that is
 * running on its connection (`active`) from one that waits behind it (pipelined) or for the connection
 * to open; a statement failed while not active, by:
 * - CONNECTION_CLOSED: it was pipelined. Postgres runs a connection's statements one at a time and
 *   flushes each one's ReadyForQuery before it reads the next, and a clean close delivers all the server
 *   sent: the ReadyForQuery before this one never came, so the server never began it.
 * - 57P01/57P02 (the server's FATAL): it was waiting for its connection to reopen. postgres.js keeps the
 *   FATAL that ended a connection under a running statement and fails with it the first statement of
 *   the reconnected connection, at the startup's ReadyForQuery, before that statement is written.
 * The statement that was running keeps its CONNECTION_CLOSED (it may have committed) and is answered
 * 503: at most one per connection. A reset (ECONNRESET, EPIPE) proves nothing: what the server sent
 * before it may be lost.
 */
export function markNeverExecuted<S extends { unsafe: (...args: never[]) => unknown }>(client: S): S {
  const unsafe = client.unsafe;
  client.unsafe = function (this: unknown, ...args: never[]) {
    const query = unsafe.apply(this, args) as { active?: boolean; reject?: (error: unknown) => void };
    const reject = query.reject;
    if (typeof reject === "function") {
      query.reject = (error) => {
        const code = (error as { code?: unknown } | null)?.code;
        reject(query.active === false && NOT_BEGUN.has(code) ? new StatementNotExecuted(error) : error);
      };
    }
    return query;
  } as S["unsafe"];
  return client;
}

const NOT_BEGUN = new Set<unknown>(["CONNECTION_CLOSED", "57P01", "57P02"]);

class StatementNotExecuted extends Error {
  readonly code = "STATEMENT_NOT_EXECUTED";
  constructor(cause: unknown) {
    super("The connection closed before the server began the statement", { cause });
  }
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
 * when the first attempt's failure proves that trying again repeats nothing (`mayRetry`; a statement:
 * it never reached the server), and with DATABASE_UNAVAILABLE for any failure that means the database
 * is away.
 */
export async function guarded<T>(
  run: () => Promise<T>,
  mayRetry: (error: unknown) => boolean = neverReachedServer,
): Promise<T> {
  const work = databaseWork();
  if (work.inFlight >= MAX_QUEUED_STATEMENTS && deadlines.getStore()?.open) {
    work.shed++;
    work.unavailable++;
    throw unavailable(new Error(`${work.inFlight} statements wait for the database already`));
  }
  work.inFlight++;
  try {
    return await withinDeadline(run());
  } catch (first) {
    if (!(first instanceof DatabaseUnavailable) && mayRetry(first)) {
      work.retried++;
      try {
        return await withinDeadline(run());
      } catch (second) {
        throw failure(second);
      }
    }
    throw failure(first);
  } finally {
    work.inFlight--;
  }
}

const READ_ONLY = Symbol.for("sesame.databaseReadOnly");
const readOnlyHolder = globalThis as { [READ_ONLY]?: () => void };

/**
 * What to do when a statement is answered `25006` (read_only_sql_transaction): the pool is connected to
 * a server that no longer takes writes (lib/db/client.ts ends those connections). One per process.
 */
export function onReadOnlyServer(handler: (() => void) | undefined): void {
  readOnlyHolder[READ_ONLY] = handler;
}

function failure(error: unknown): unknown {
  if (!isDatabaseAway(error)) return error;
  if (rootOf(error).code === "25006") readOnlyHolder[READ_ONLY]?.();
  databaseWork().unavailable++;
  return unavailable(error);
}
