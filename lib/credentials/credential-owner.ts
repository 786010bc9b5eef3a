import type { User } from "@/lib/users";
import type { Credential } from "./credential";
import { selectCredentialWithOwner } from "./store";

/**
 * A credential with its owner and the owner's external id (the Passkey API `user_id`, null for a
 * platform user); undefined when the tenant has no such credential. One statement: the owner comes from
 * lib/users' subquery (that module owns the `users` table); a credential's user always exists (foreign
 * key, cascade).
 */
export function findCredentialWithOwner(
  tenantId: string,
  credentialId: string,
): Promise<{ credential: Credential; ownerExternalId: string | null; owner: User | undefined } | undefined> {
  return selectCredentialWithOwner(tenantId, credentialId);
}
