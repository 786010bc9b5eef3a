import { and, asc, eq, getTableColumns, lt, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { embeddedCache } from "@/lib/db/embedded-cache";
import { fixedStatement } from "@/lib/db/statement";
import {
  thirdPartyProviders,
  thirdPartyStates,
  type ThirdPartyProviderRow,
  type ThirdPartyStateRow,
} from "@/lib/db/schema";

export type NewProviderRow = Omit<typeof thirdPartyProviders.$inferInsert, "tenantId" | "id">;

/** The tenant's providers, kept on the embedded database (lib/db/embedded-cache.ts); every write empties it. */
const providers = embeddedCache<readonly ThirdPartyProviderRow[]>("thirdPartyProviders");

/** The tenant's providers as `selectProviders` reads them, from memory on the embedded database. Read-only. */
export function selectProvidersCached(tenantId: string): Promise<readonly ThirdPartyProviderRow[]> {
  return providers.read(tenantId, () => selectProviders(tenantId));
}

/** Runs a write to the providers with the cache emptied before and after it. */
async function changing<T>(write: () => Promise<T>): Promise<T> {
  providers.forget();
  try {
    return await write();
  } finally {
    providers.forget();
  }
}

/** Read by every flow login's start on Postgres: built once (lib/db/statement.ts). */
const providersRead = fixedStatement((db) =>
  db
    .select()
    .from(thirdPartyProviders)
    .where(eq(thirdPartyProviders.tenantId, sql.placeholder("tenantId")))
    .orderBy(asc(thirdPartyProviders.slug)),
);

export async function selectProviders(tenantId: string): Promise<ThirdPartyProviderRow[]> {
  return providersRead(await executor(), { tenantId });
}

export async function selectProvider(
  tenantId: string,
  slug: string,
): Promise<ThirdPartyProviderRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(thirdPartyProviders)
    .where(and(eq(thirdPartyProviders.tenantId, tenantId), eq(thirdPartyProviders.slug, slug)));
  return row;
}

/** Inserts a provider; undefined when the tenant already has one with this slug. */
export async function insertProvider(
  tenantId: string,
  values: NewProviderRow,
): Promise<ThirdPartyProviderRow | undefined> {
  return changing(async () => {
    const db = await executor();
    const [row] = await db
      .insert(thirdPartyProviders)
      .values({ ...values, tenantId })
      .onConflictDoNothing()
      .returning();
    return row;
  });
}

export async function updateProviderRow(
  tenantId: string,
  slug: string,
  values: Partial<NewProviderRow>,
): Promise<ThirdPartyProviderRow | undefined> {
  return changing(async () => {
    const db = await executor();
    const [row] = await db
      .update(thirdPartyProviders)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(thirdPartyProviders.tenantId, tenantId), eq(thirdPartyProviders.slug, slug)))
      .returning();
    return row;
  });
}

export async function deleteProviderRow(
  tenantId: string,
  slug: string,
): Promise<ThirdPartyProviderRow | undefined> {
  return changing(async () => {
    const db = await executor();
    const [row] = await db
      .delete(thirdPartyProviders)
      .where(and(eq(thirdPartyProviders.tenantId, tenantId), eq(thirdPartyProviders.slug, slug)))
      .returning();
    return row;
  });
}

export interface NewStateRow {
  providerSlug: string;
  stateHash: string;
  browserHash: string;
  secretsSealed: string;
  redirectTo: string;
  linkUserId: string | null;
  codeChallenge: string | null;
  origin: "flow" | "api";
  ttlSeconds: number;
}

export async function insertState(tenantId: string, values: NewStateRow): Promise<ThirdPartyStateRow> {
  const db = await executor();
  const { ttlSeconds, ...rest } = values;
  const [row] = await db
    .insert(thirdPartyStates)
    .values({ ...rest, tenantId, expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})` })
    .returning();
  return row!;
}

/**
 * Takes the state with this hash (single use: of concurrent callbacks exactly one gets the row), with
 * whether it has expired by the database clock.
 */
export async function consumeState(
  tenantId: string,
  stateHash: string,
): Promise<(ThirdPartyStateRow & { expired: boolean }) | undefined> {
  const db = await executor();
  const [row] = await db
    .delete(thirdPartyStates)
    .where(and(eq(thirdPartyStates.tenantId, tenantId), eq(thirdPartyStates.stateHash, stateHash)))
    .returning({
      ...getTableColumns(thirdPartyStates),
      expired: sql<boolean>`${thirdPartyStates.expiresAt} <= now()`,
    });
  return row;
}

/** Deletes states that expired (any tenant): abandoned sign-ins leave rows behind. */
export async function sweepExpiredStates(): Promise<void> {
  const db = await executor();
  await db.delete(thirdPartyStates).where(lt(thirdPartyStates.expiresAt, sql`now() - interval '1 hour'`));
}
