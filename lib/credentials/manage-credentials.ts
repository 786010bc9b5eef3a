import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { findUserByExternalId } from "@/lib/users";
import type { Credential } from "./credential";
import { findCredentialWithOwner } from "./credential-owner";
import { deleteCredentialRow, selectUserCredentials, updateCredentialName } from "./store";

/** A credential together with the external id of the user it belongs to. */
export interface OwnedCredential {
  credential: Credential;
  ownerExternalId: string | null;
}

const credentialNotFound = () => new AppError("CREDENTIAL_NOT_FOUND", "credential not found");

/** The user's passkeys and MFA keys, oldest first; an unknown user has none. */
export async function listCredentials(tenantId: string, externalUserId: string): Promise<OwnedCredential[]> {
  const user = await findUserByExternalId(tenantId, externalUserId);
  if (!user) return [];
  const credentials = await selectUserCredentials(tenantId, user.id);
  return credentials.map((credential) => ({ credential, ownerExternalId: user.externalId }));
}

export async function getCredential(tenantId: string, credentialId: string): Promise<OwnedCredential> {
  const found = await findCredentialWithOwner(tenantId, credentialId);
  if (!found) throw credentialNotFound();
  return found;
}

/** Changes a credential's display name (no technical meaning). */
export async function renameCredential(
  tenantId: string,
  credentialId: string,
  name: string,
  context: AuditContext,
): Promise<Credential> {
  return transaction(async () => {
    const updated = await updateCredentialName(tenantId, credentialId, name);
    if (!updated) throw credentialNotFound();
    await recordAuditEvent(tenantId, {
      ...context,
      type: "passkey.credential.updated",
      details: { credential_id: credentialId, name },
    });
    return updated;
  });
}

/** Deletes a credential: it can no longer finish any ceremony, including ones already initialized. */
export async function deleteCredential(
  tenantId: string,
  credentialId: string,
  context: AuditContext,
): Promise<void> {
  await transaction(async () => {
    const deleted = await deleteCredentialRow(tenantId, credentialId);
    if (!deleted) throw credentialNotFound();
    await recordAuditEvent(tenantId, {
      ...context,
      type: "passkey.credential.deleted",
      details: { credential_id: credentialId, user_id: deleted.userId },
    });
  });
}
