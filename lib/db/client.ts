import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { connectionLost, guarded, markNeverExecuted, onReadOnlyServer, POOL_SETTINGS } from "./availability";
import { backupSocketPath, dumpPglite, serveBackups, type Dumpable } from "./backup";
import { acquireDataDirLock } from "./pglite-lock";
import { poolApplicationName, readOnlySweeper, type PoolHosts } from "./read-only";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseOptions =
  | { kind: "postgres"; url: string }
  /**
   * `dir` undefined means an in-memory database (tests). `template`: a file made by `dumpDataDir` of an
   * already migrated database, loaded instead of initialising a new one (the test suite makes one per run:
   * a load takes a quarter of what initdb plus the migrations take).
   */
  | { kind: "pglite"; dir?: string; template?: string; migrate?: boolean };

export interface DatabaseHandle {
  readonly kind: "postgres" | "pglite";
  readonly db: Database;
  /** Runs `select 1`; rejects when the database does not answer within `timeoutMs`. */
  ping(timeoutMs: number): Promise<void>;
  /** True when every migration in `drizzle/` is recorded as applied. */
  migrationsApplied(): Promise<boolean>;
  /** PGlite only: a consistent copy of the database, as a gzipped tarball (lib/db/backup.ts). */
  dump?(): Promise<Buffer>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");
// Any constant works; it only has to be the same for every Sesame instance.
const MIGRATION_LOCK_ID = 7_303_221_501;

interface JournalEntry {
  when: number;
}

function localMigrations(): JournalEntry[] {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"));
  return (journal as { entries: JournalEntry[] }).entries;
}

/** Rows of a raw `execute`, on either driver (PGlite answers `{rows}`, postgres-js an array). */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function handle(kind: DatabaseHandle["kind"], db: Database, close: () => Promise<void>): DatabaseHandle {
  return {
    kind,
    db,
    close,
    async ping(timeoutMs) {
      await withTimeout(db.execute(sql`select 1`), timeoutMs, "The database");
    },
    async migrationsApplied() {
      const expected = localMigrations();
      const result = await db.execute(
        sql`select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations`,
      );
      const [row] = rowsOf<{ count: number; last: string | null }>(result);
      const { count, last } = row!;
      return count >= expected.length && Number(last ?? 0) >= (expected.at(-1)?.when ?? 0);
    },
  };
}

/**
 * Makes every statement drizzle sends through postgres.js a prepared one. drizzle asks postgres.js for a
 * named statement only for queries built with `.prepare(name)`; every other query is sent unnamed, and
 * postgres.js then needs two round trips for it (Parse and Describe to learn the parameter types, then
 * Bind and Execute) and Postgres parses and plans it every time. Prepared, postgres.js keeps each
 * statement per connection by its text and parameter types, and sends a known one in one round trip
 * (docs/performance.md). Statements are drizzle's parameterised SQL, so their texts are few.
 */
async function preparePostgresStatements(): Promise<void> {
  const { PostgresJsSession } = await import("drizzle-orm/postgres-js/session");
  const prototype = PostgresJsSession.prototype as unknown as {
    prepareQuery: (query: unknown, fields: unknown, name: string | undefined, ...rest: unknown[]) => unknown;
    [PREPARED]?: true;
  };
  if (prototype[PREPARED]) return;
  const prepareQuery = prototype.prepareQuery;
  // drizzle prepares (postgres.js `prepare: true`) when a name is given; postgres.js names it itself.
  prototype.prepareQuery = function (query, fields, name, ...rest) {
    return prepareQuery.call(this, query, fields, name ?? "", ...rest);
  };
  prototype[PREPARED] = true;
}

const PREPARED = Symbol.for("sesame.preparedStatements");
const GUARDED = Symbol.for("sesame.guardedStatements");

/**
 * Every statement and transaction on Postgres goes through `guarded` (lib/db/availability.ts): bounded by
 * the request's deadline, sent once more when the first attempt provably never reached the server, and
 * failing with DATABASE_UNAVAILABLE (503) when the database is away. A transaction is tried again when
 * its connection was lost before its work began (its `BEGIN` failed): nothing of it ran. One whose work
 * had begun is not, although it never committed: its work would run twice, with whatever it does besides
 * statements. It held its connection alone, so it is that connection's one failed request.
 */
async function guardPostgresStatements(): Promise<void> {
  const { PostgresJsPreparedQuery, PostgresJsSession } = await import("drizzle-orm/postgres-js/session");
  type Run = (this: unknown, ...args: unknown[]) => Promise<unknown>;
  const query = PostgresJsPreparedQuery.prototype as unknown as {
    execute: Run;
    all: Run;
    [GUARDED]?: true;
  };
  if (query[GUARDED]) return;
  for (const method of ["execute", "all"] as const) {
    const run = query[method];
    query[method] = function (...args) {
      return guarded(() => run.apply(this, args));
    };
  }
  query[GUARDED] = true;
  const session = PostgresJsSession.prototype as unknown as {
    transaction: (
      this: unknown,
      work: (tx: unknown) => Promise<unknown>,
      config?: unknown,
    ) => Promise<unknown>;
  };
  const transaction = session.transaction;
  session.transaction = function (work, config) {
    let begun = false;
    const start = (tx: unknown) => {
      begun = true;
      return work(tx);
    };
    return guarded(
      () => transaction.call(this, start, config),
      (error) => !begun && connectionLost(error),
    );
  };
}

/**
 * What postgres.js is told for `target_session_attrs`. It takes `read-write` to mean that the server
 * reports `default_transaction_read_only` off, which a Postgres 14+ standby does too (measured on 15:
 * it kept a connection to the standby, and every write on it failed). `primary` checks
 * `in_hot_standby`, which is what `read-write` means in a failover; a primary made read-only answers
 * writes 25006, a 503 (docs/operations.md, Postgres failover).
 */
export function sessionAttributes(url: string): { target_session_attrs?: "primary" } {
  const query = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
  const asked = new URLSearchParams(query).get("target_session_attrs") ?? process.env.PGTARGETSESSIONATTRS;
  return asked === "read-write" ? { target_session_attrs: "primary" } : {};
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");

  // Migrate on one dedicated connection under an advisory lock, so instances starting together
  // against an empty database apply each migration exactly once.
  const migrator = postgres(url, {
    max: 1,
    onnotice: () => {},
    connect_timeout: 10,
    ...sessionAttributes(url),
  });
  try {
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migrate(drizzle({ client: migrator }), { migrationsFolder: MIGRATIONS_FOLDER });
    await migrator`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
  } finally {
    await migrator.end({ timeout: 5 });
  }

  await preparePostgresStatements();
  await guardPostgresStatements();
  const client = markNeverExecuted(
    postgres(url, {
      max: 10,
      onnotice: () => {},
      connect_timeout: POOL_SETTINGS.connectTimeoutSeconds,
      backoff: POOL_SETTINGS.backoff,
      idle_timeout: 60,
      ...sessionAttributes(url),
      connection: { application_name: poolApplicationName() },
    }),
  );
  // A statement answered 25006: end the pool's connections to read-only servers (lib/db/read-only.ts).
  const options = client.options as unknown as PoolHosts & { connection: { application_name: string } };
  const sweep = readOnlySweeper(url, options, options.connection.application_name);
  onReadOnlyServer(() => void sweep());
  const db = drizzle({ client, schema }) as unknown as Database;
  return handle("postgres", db, () => {
    onReadOnlyServer(undefined);
    return client.end({ timeout: 5 });
  });
}

/**
 * PGlite runs Postgres inside a WebAssembly heap, and Emscripten zero-fills the shared memory Postgres
 * asks for at start, so all of `shared_buffers` is resident from the first moment. Postgres' default
 * of 128 MB also grows that heap past its initial 128 MB: about 150 MB of the server's RSS before any
 * request. 32 MB (4,096 pages) keeps the heap at its initial size, holds the working set of a tenant
 * with many thousands of users, and costs nothing measurable in throughput (docs/memory.md). PGlite
 * uses `startParams` instead of its defaults, so they are kept and the setting appended.
 */
const PGLITE_SHARED_BUFFERS = "32MB";
const PGLITE_OPTIONS = (pglite: { defaultStartParams: string[] }) => ({
  startParams: [...pglite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
});

/**
 * The result parsers drizzle passes with every PGlite query (timestamps, dates, intervals and their arrays
 * as PGlite's text, left to drizzle to map). PGlite merges per-query parsers into a fresh object for every
 * query, which costs about a third of a simple query's time; set once on the client instead, a query
 * costs what it costs without them (docs/performance.md).
 */
const keepText = (value: string) => value;
const DRIZZLE_PGLITE_PARSERS: Record<number, (value: string) => unknown> = Object.fromEntries(
  // timestamp, timestamptz, interval, date; numeric[], date[], timestamp[], timestamptz[], interval[]
  [1114, 1184, 1186, 1082, 1231, 1182, 1115, 1185, 1187].map((oid) => [oid, keepText]),
);

type QueryOptions = { parsers?: Record<number, unknown> } & Record<string, unknown>;
type Queryable = { query: (text: string, params?: unknown[], options?: QueryOptions) => Promise<unknown> };

/** Per-query parsers the client already applies are dropped; any other set is passed on unchanged. */
function withoutClientParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers) return options;
  const { parsers, ...rest } = options;
  const same = Object.keys(parsers).every((oid) => Number(oid) in DRIZZLE_PGLITE_PARSERS);
  return same ? rest : options;
}

function dropClientParsers<T extends Queryable>(target: T): T {
  const query = target.query.bind(target);
  target.query = (text, params, options) => query(text, params, withoutClientParsers(options));
  return target;
}

/** The PGlite client drizzle is given: its queries, and its transactions' queries, without the parsers. */
function withClientParsers<T extends object>(client: T): T {
  const target = client as unknown as Queryable & {
    transaction: (fn: (tx: Queryable) => Promise<unknown>) => Promise<unknown>;
  };
  dropClientParsers(target);
  const transaction = target.transaction.bind(target);
  target.transaction = (fn) => transaction((tx) => fn(dropClientParsers(tx)));
  return client;
}

/**
 * `migrate: false` opens the database as it is (a backup of a folder no process holds). A folder opened
 * with `dir` answers backup requests on its socket for as long as it is open (lib/db/backup.ts).
 */
async function openPglite(
  dir: string | undefined,
  template?: string,
  migrate = true,
): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate: migrateFolder } = await import("drizzle-orm/pglite/migrator");

  let release = () => {};
  if (dir) {
    fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
    release = acquireDataDirLock(`${dir}.lock`, dir);
  }
  try {
    const client = await PGlite.create({
      ...(dir ? { dataDir: dir } : {}),
      ...(template ? { loadDataDir: new Blob([fs.readFileSync(template)]) } : {}),
      ...PGLITE_OPTIONS(PGlite),
      parsers: DRIZZLE_PGLITE_PARSERS,
    });
    const pglite = drizzle({ client: withClientParsers(client), schema });
    if (migrate) await migrateFolder(pglite, { migrationsFolder: MIGRATIONS_FOLDER });
    const db = pglite as unknown as Database;
    const dump = () => dumpPglite(client as unknown as Dumpable);
    const backups = dir
      ? serveBackups(backupSocketPath(dir), dump, (error) =>
          process.stderr.write(`Backups of ${dir} need the server stopped: ${error.message}\n`),
        )
      : undefined;
    return {
      ...handle("pglite", db, async () => {
        await backups?.close();
        await client.close();
        release();
      }),
      dump,
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Opens the database and applies pending migrations (idempotent). */
export function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.kind === "postgres"
    ? openPostgres(options.url)
    : openPglite(options.dir, options.template, options.migrate);
}
