import { and, asc, eq, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { identities, type IdentityRow } from "@/lib/db/schema";
import type { IdentityKey, IdentityKind, IdentityValues } from "./identity";

export async function selectIdentity(tenantId: string, key: IdentityKey): Promise<IdentityRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(identities)
    .where(
      and(
        eq(identities.tenantId, tenantId),
        eq(identities.kind, key.kind),
        eq(identities.providerId, key.providerId),
        eq(identities.subject, key.subject),
      ),
    );
  return row;
}

/** Inserts the identity; undefined when another user got the same provider account first. */
export async function insertIdentity(
  tenantId: string,
  values: IdentityValues,
): Promise<IdentityRow | undefined> {
  const db = await executor();
  const [row] = await db
    .insert(identities)
    .values({ tenantId, ...values })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** What the provider said at this sign-in; tokens are replaced only when given (kept ones stay otherwise). */
export async function updateIdentity(
  tenantId: string,
  id: string,
  values: Pick<IdentityValues, "email" | "emailVerified" | "claims" | "tokensSealed">,
): Promise<IdentityRow | undefined> {
  const db = await executor();
  const [row] = await db
    .update(identities)
    .set({
      email: values.email,
      emailVerified: values.emailVerified,
      claims: values.claims,
      ...(values.tokensSealed ? { tokensSealed: values.tokensSealed } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(identities.tenantId, tenantId), eq(identities.id, id)))
    .returning();
  return row;
}

export async function selectUserIdentities(tenantId: string, userId: string): Promise<IdentityRow[]> {
  const db = await executor();
  return db
    .select()
    .from(identities)
    .where(and(eq(identities.tenantId, tenantId), eq(identities.userId, userId)))
    .orderBy(asc(identities.createdAt), asc(identities.id));
}

export async function deleteIdentityRow(
  tenantId: string,
  userId: string,
  id: string,
): Promise<IdentityRow | undefined> {
  const db = await executor();
  const [row] = await db
    .delete(identities)
    .where(and(eq(identities.tenantId, tenantId), eq(identities.userId, userId), eq(identities.id, id)))
    .returning();
  return row;
}

/** Deletes every identity of one user (the first proof of an address, lib/emails); answers the rows. */
export async function deleteUserIdentityRows(tenantId: string, userId: string): Promise<IdentityRow[]> {
  const db = await executor();
  return db
    .delete(identities)
    .where(and(eq(identities.tenantId, tenantId), eq(identities.userId, userId)))
    .returning();
}

/** Deletes every identity of one provider (its configuration is gone); answers how many. */
export async function deleteProviderIdentityRows(
  tenantId: string,
  kind: IdentityKind,
  providerId: string,
): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(identities)
    .where(
      and(
        eq(identities.tenantId, tenantId),
        eq(identities.kind, kind),
        eq(identities.providerId, providerId),
      ),
    )
    .returning({ id: identities.id });
  return rows.length;
}
