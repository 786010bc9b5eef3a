import type { Tenant } from "./tenant";

/**
 * Tenants as read outside a transaction, kept in process memory **on the embedded database only**: one
 * process opens a PGlite folder (lib/db/pglite-lock.ts), so every change to a tenant or its signing
 * keys goes through this process's store functions, which empty the cache. On Postgres other instances
 * change tenants too, so nothing is kept there: every request reads its tenant (docs/performance.md).
 *
 * On globalThis, as the database is: Next.js evaluates lib/ once per route bundle, and a change made
 * through one bundle must reach the reads of all. A read that raced with a change is not kept (the
 * generation moved), and cached tenants are frozen, so no caller can change what the next one reads.
 */
const KEY = Symbol.for("sesame.tenantCache");
const MAX_TENANTS = 1_000;

interface TenantCache {
  generation: number;
  tenants: Map<string, Tenant>;
}

function cache(): TenantCache {
  const holder = globalThis as { [KEY]?: TenantCache };
  return (holder[KEY] ??= { generation: 0, tenants: new Map() });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export function cachedTenant(tenantId: string): Tenant | undefined {
  return cache().tenants.get(tenantId);
}

/** The generation a read starts at; {@link keepTenant} keeps its result only if nothing changed since. */
export function tenantCacheGeneration(): number {
  return cache().generation;
}

export function keepTenant(tenant: Tenant, generation: number): Tenant {
  const current = cache();
  if (current.generation !== generation) return tenant;
  if (current.tenants.size >= MAX_TENANTS) current.tenants.clear();
  // A copy: the tenant shares objects with the settings defaults, which are not the cache's to freeze.
  const kept = deepFreeze(structuredClone(tenant));
  current.tenants.set(tenant.id, kept);
  return kept;
}

/**
 * Called by every store function that changes a tenant or its signing keys, before and after the write:
 * a read that started before the change and ends after it is then not kept either.
 */
export function forgetTenants(): void {
  const current = cache();
  current.generation += 1;
  current.tenants.clear();
}
