import { getDatabase, inTransaction } from "./index";

/**
 * A read kept in process memory **on the embedded database only**, by key (a tenant's id, or a tenant's
 * id and a client's), for what a hot path reads
 * on every request and seldom changes (lib/tenants keeps its own). One process opens a PGlite folder
 * (lib/db/pglite-lock.ts), so every change goes through that process's store functions, which call
 * `forget()` before and after the write: a read that started before a change and ended after it is not
 * kept (the generation moved). On Postgres other instances write too, so nothing is kept and every call
 * reads. Reads inside a transaction are neither served from nor kept in the cache (what they see may not
 * be committed). On globalThis: Next.js evaluates lib/ once per route bundle, and a change made through
 * one bundle must reach the reads of all. A miss (undefined) is not kept. Kept values are frozen copies,
 * so no caller can change what the next one reads.
 */
export interface EmbeddedCache<T> {
  /** The key's value, from memory when kept, else from `read` (kept when allowed). */
  read(key: string, read: () => Promise<T>): Promise<T>;
  /** As `read` on the embedded database outside a transaction; elsewhere undefined, and nothing is read. */
  readIfEmbedded(key: string, read: () => Promise<T>): Promise<T | undefined>;
  /** Empties the cache; every store function that changes what it holds calls it before and after. */
  forget(): void;
}

const MAX_KEYS = 1_000;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export function embeddedCache<T>(name: string): EmbeddedCache<T> {
  const symbol = Symbol.for(`sesame.embeddedCache.${name}`);
  const state = () => {
    const holder = globalThis as { [symbol]?: { generation: number; values: Map<string, T> } };
    return (holder[symbol] ??= { generation: 0, values: new Map() });
  };
  const cacheable = async () => !inTransaction() && (await getDatabase()).kind === "pglite";
  const cached = async (key: string, read: () => Promise<T>) => {
    const current = state();
    const kept = current.values.get(key);
    if (kept !== undefined) return kept;
    const generation = current.generation;
    const value = await read();
    if (value === undefined || state().generation !== generation) return value;
    if (current.values.size >= MAX_KEYS) current.values.clear();
    const frozen = deepFreeze(structuredClone(value));
    current.values.set(key, frozen);
    return frozen;
  };
  return {
    async read(key, read) {
      return (await cacheable()) ? cached(key, read) : read();
    },
    async readIfEmbedded(key, read) {
      return (await cacheable()) ? cached(key, read) : undefined;
    },
    forget() {
      const current = state();
      current.generation += 1;
      current.values.clear();
    },
  };
}
