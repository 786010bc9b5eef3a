import { and, asc, eq, gt, lt, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import {
  samlAssertions,
  samlIdentityProviders,
  samlRequests,
  samlServiceProviderKeys,
  type SamlIdentityProviderRow,
  type SamlRequestRow,
} from "@/lib/db/schema";

export type SamlProviderValues = Omit<
  typeof samlIdentityProviders.$inferInsert,
  "id" | "tenantId" | "createdAt" | "updatedAt"
>;

export async function insertProvider(
  tenantId: string,
  values: SamlProviderValues,
): Promise<SamlIdentityProviderRow> {
  const db = await executor();
  const [row] = await db
    .insert(samlIdentityProviders)
    .values({ tenantId, ...values })
    .returning();
  return row!;
}

export async function updateProviderRow(
  tenantId: string,
  id: string,
  values: Partial<SamlProviderValues>,
): Promise<SamlIdentityProviderRow | undefined> {
  const db = await executor();
  const [row] = await db
    .update(samlIdentityProviders)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(samlIdentityProviders.tenantId, tenantId), eq(samlIdentityProviders.id, id)))
    .returning();
  return row;
}

export async function deleteProviderRow(
  tenantId: string,
  id: string,
): Promise<SamlIdentityProviderRow | undefined> {
  const db = await executor();
  const [row] = await db
    .delete(samlIdentityProviders)
    .where(and(eq(samlIdentityProviders.tenantId, tenantId), eq(samlIdentityProviders.id, id)))
    .returning();
  return row;
}

export async function selectProvider(
  tenantId: string,
  id: string,
): Promise<SamlIdentityProviderRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(samlIdentityProviders)
    .where(and(eq(samlIdentityProviders.tenantId, tenantId), eq(samlIdentityProviders.id, id)));
  return row;
}

export async function selectProviders(tenantId: string): Promise<SamlIdentityProviderRow[]> {
  const db = await executor();
  return db
    .select()
    .from(samlIdentityProviders)
    .where(eq(samlIdentityProviders.tenantId, tenantId))
    .orderBy(asc(samlIdentityProviders.createdAt), asc(samlIdentityProviders.id));
}

/** The tenant's IdP serving `domain` (lower-cased), enabled or not. */
export async function selectProviderByDomain(
  tenantId: string,
  domain: string,
): Promise<SamlIdentityProviderRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(samlIdentityProviders)
    .where(
      and(
        eq(samlIdentityProviders.tenantId, tenantId),
        sql`${domain} = any(${samlIdentityProviders.domains})`,
      ),
    )
    .orderBy(asc(samlIdentityProviders.createdAt))
    .limit(1);
  return row;
}

/**
 * Serialises changes to one tenant's IdP domains until the transaction ends, so the "domain is unique
 * across the tenant's IdPs" check and the write cannot interleave with another instance's.
 */
export async function lockTenantProviders(tenantId: string): Promise<void> {
  const db = await executor();
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`saml-idps:${tenantId}`}))`);
}

export async function insertRequest(values: {
  tenantId: string;
  requestId: string;
  idpId: string;
  redirectTo: string;
  browserHash: string;
  ttlSeconds: number;
}): Promise<void> {
  const db = await executor();
  await db.insert(samlRequests).values({
    tenantId: values.tenantId,
    requestId: values.requestId,
    idpId: values.idpId,
    redirectTo: values.redirectTo,
    browserHash: values.browserHash,
    expiresAt: sql`now() + make_interval(secs => ${values.ttlSeconds})`,
  });
}

/** Takes the tenant's unexpired request with this id, once (concurrent posts: one wins). */
export async function consumeRequest(
  tenantId: string,
  requestId: string,
): Promise<SamlRequestRow | undefined> {
  const db = await executor();
  const [row] = await db
    .delete(samlRequests)
    .where(
      and(
        eq(samlRequests.tenantId, tenantId),
        eq(samlRequests.requestId, requestId),
        gt(samlRequests.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row;
}

/** Records a consumed assertion id; false when it was recorded already (a replay). */
export async function insertAssertion(values: {
  tenantId: string;
  idpId: string;
  assertionId: string;
  expiresAt: Date;
}): Promise<boolean> {
  const db = await executor();
  const rows = await db.insert(samlAssertions).values(values).onConflictDoNothing().returning({
    id: samlAssertions.assertionId,
  });
  return rows.length === 1;
}

/** Drops expired requests and assertion ids (every tenant): both are only needed until they expire. */
export async function sweepExpired(): Promise<void> {
  const db = await executor();
  await db.delete(samlRequests).where(lt(samlRequests.expiresAt, sql`now()`));
  await db.delete(samlAssertions).where(lt(samlAssertions.expiresAt, sql`now()`));
}

export async function insertServiceProviderKey(values: {
  tenantId: string;
  privateKeySealed: string;
  certificate: string;
}): Promise<void> {
  const db = await executor();
  await db.insert(samlServiceProviderKeys).values(values).onConflictDoNothing();
}

export async function selectServiceProviderKey(tenantId: string) {
  const db = await executor();
  const [row] = await db
    .select()
    .from(samlServiceProviderKeys)
    .where(eq(samlServiceProviderKeys.tenantId, tenantId));
  return row;
}
