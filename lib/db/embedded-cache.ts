import { getDatabase, inTransaction } from "./index";

/**
 * A read kept in process memory **on the embedded database only**, per tenant, for what a hot path reads
 * on every request and seldom changes (lib/tenants keeps its own). One process opens a PGlite folder
 * (lib/db/pglite-lock.ts), so every change goes through that process's store functions, which call
 * `forget()` before and after the write: a read that started before a change and ended after it is not
 * kept (the generation moved). On Postgres other instances write too, so nothing is kept and every call
 * reads. Reads inside a transaction are neither served from nor kept in the cache (what they see may not
 * be committed). On globalThis: Next.js evaluates lib/ once per route bundle, and a change made through
 * one bundle must reach the reads of all. Values are shared between callers: treat them as read-only.
 */
export interface EmbeddedCache<T> {
  /** The tenant's value, from memory when kept, else from `read` (kept when allowed). */
  read(tenantId: string, read: () => Promise<T>): Promise<T>;
  /** As `read` on the embedded database outside a transaction; elsewhere undefined, and nothing is read. */
  readIfEmbedded(tenantId: string, read: () => Promise<T>): Promise<T | undefined>;
  /** Empties the cache; every store function that changes what it holds calls it before and after. */
  forget(): void;
}

const MAX_TENANTS = 1_000;

export function embeddedCache<T>(name: string): EmbeddedCache<T> {
  const key = Symbol.for(`sesame.embeddedCache.${name}`);
  const state = () => {
    const holder = globalThis as { [key]?: { generation: number; values: Map<string, T> } };
    return (holder[key] ??= { generation: 0, values: new Map() });
  };
  const cacheable = async () => !inTransaction() && (await getDatabase()).kind === "pglite";
  const cached = async (tenantId: string, read: () => Promise<T>) => {
    const current = state();
    if (current.values.has(tenantId)) return current.values.get(tenantId)!;
    const generation = current.generation;
    const value = await read();
    if (state().generation === generation) {
      if (current.values.size >= MAX_TENANTS) current.values.clear();
      current.values.set(tenantId, value);
    }
    return value;
  };
  return {
    async read(tenantId, read) {
      return (await cacheable()) ? cached(tenantId, read) : read();
    },
    async readIfEmbedded(tenantId, read) {
      return (await cacheable()) ? cached(tenantId, read) : undefined;
    },
    forget() {
      const current = state();
      current.generation += 1;
      current.values.clear();
    },
  };
}
