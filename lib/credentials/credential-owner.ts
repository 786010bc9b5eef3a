import { findUser } from "@/lib/users";
import type { Credential } from "./credential";
import { findCredential } from "./store";

/**
 * A credential with its owner's external id (the Passkey API `user_id`); undefined when the tenant has
 * no such credential. The owner is read through lib/users, which owns the `users` table.
 */
export async function findCredentialWithOwner(
  tenantId: string,
  credentialId: string,
): Promise<{ credential: Credential; ownerExternalId: string | null } | undefined> {
  const credential = await findCredential(tenantId, credentialId);
  if (!credential) return undefined;
  const owner = await findUser(tenantId, credential.userId);
  return owner ? { credential, ownerExternalId: owner.externalId } : undefined;
}
