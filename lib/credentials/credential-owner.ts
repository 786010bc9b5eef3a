import { and, eq, getTableColumns } from "drizzle-orm";
import { executor } from "@/lib/db";
import { webauthnCredentials } from "@/lib/db/schema";
import { externalIdOf } from "@/lib/users/external-id-of";
import type { Credential } from "./credential";

/**
 * A credential with its owner's external id (the Passkey API `user_id`, null for a platform user);
 * undefined when the tenant has no such credential. One statement: the owner's id comes from lib/users'
 * subquery (that module owns the `users` table); a credential's user always exists (foreign key, cascade).
 */
export async function findCredentialWithOwner(
  tenantId: string,
  credentialId: string,
): Promise<{ credential: Credential; ownerExternalId: string | null } | undefined> {
  const db = await executor();
  const [row] = await db
    .select({
      ...getTableColumns(webauthnCredentials),
      ownerExternalId: externalIdOf(tenantId, webauthnCredentials.userId),
    })
    .from(webauthnCredentials)
    .where(and(eq(webauthnCredentials.tenantId, tenantId), eq(webauthnCredentials.id, credentialId)))
    .limit(1);
  if (!row) return undefined;
  const { ownerExternalId, ...credential } = row;
  return { credential, ownerExternalId };
}
