import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { openDatabase, type Database, type DatabaseHandle, type DatabaseOptions } from "./client";

export {
  openDatabase,
  rowsOf,
  withTimeout,
  type Database,
  type DatabaseHandle,
  type DatabaseOptions,
} from "./client";
export { DatabaseLocked, lockHolder } from "./pglite-lock";
export { backupSocketPath, requestBackup } from "./backup";
export { likePattern } from "./like";
export {
  databaseWork,
  isDatabaseAway,
  REQUEST_DATABASE_DEADLINE_MS,
  withDatabaseDeadline,
  type DatabaseWork,
} from "./availability";
export * as schema from "./schema";

// Kept on globalThis: Next.js evaluates instrumentation and route bundles separately, and dev mode reloads
// modules, but there must be one database per process.
const KEY = Symbol.for("sesame.database");
const OPTIONS = Symbol.for("sesame.databaseOptions");
type Holder = { [KEY]?: Promise<DatabaseHandle>; [OPTIONS]?: DatabaseOptions };
const holder = globalThis as Holder;

/** Chooses the database getDatabase() opens, instead of the configuration's (tests, tools). */
export function configureDatabase(options: DatabaseOptions): void {
  holder[OPTIONS] = options;
}

export function databaseOptionsFromConfig(): DatabaseOptions {
  if (holder[OPTIONS]) return holder[OPTIONS];
  const config = getConfig();
  return config.databaseUrl
    ? { kind: "postgres", url: config.databaseUrl }
    : { kind: "pglite", dir: path.join(config.dataDir, "pglite") };
}

/** The process database: opened (and migrated) at boot by lib/boot, or on first use elsewhere (CLI). */
export function getDatabase(): Promise<DatabaseHandle> {
  holder[KEY] ??= openDatabase(databaseOptionsFromConfig()).catch((error: unknown) => {
    delete holder[KEY];
    throw error;
  });
  return holder[KEY];
}

export async function closeDatabase(): Promise<void> {
  const current = holder[KEY];
  delete holder[KEY];
  if (current) await (await current).close();
}

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Executor = Database | Transaction;

const currentTransaction = new AsyncLocalStorage<Transaction>();

/**
 * What store functions query with: the transaction opened by `transaction()` further up the call
 * stack, or else the database. Store functions therefore never take a connection parameter.
 */
export async function executor(): Promise<Executor> {
  return currentTransaction.getStore() ?? (await getDatabase()).db;
}

/** True inside `transaction()`: what is read there may not be committed yet. */
export function inTransaction(): boolean {
  return currentTransaction.getStore() !== undefined;
}

/**
 * Runs `work` in one transaction on either driver; store calls inside it join the transaction.
 * Nested calls reuse the outer transaction.
 */
export async function transaction<T>(work: () => Promise<T>): Promise<T> {
  if (currentTransaction.getStore()) return work();
  const { db } = await getDatabase();
  return db.transaction((tx) => currentTransaction.run(tx, work));
}
