import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { requirePlatformUser } from "@/lib/users";
import type { Credential } from "./credential";
import { deleteUserCredentialRow, selectCredential, selectUserCredentials } from "./store";

// The admin API's operations on a user's WebAuthn credentials, with the API key as the actor. An
// unknown user, another tenant's or a Passkey API user is USER_NOT_FOUND (`requirePlatformUser`).

const credentialNotFound = () =>
  new AppError("CREDENTIAL_NOT_FOUND", undefined, { details: ["credential not found"] });

/** The user's passkeys and MFA keys, oldest first; an unknown user is USER_NOT_FOUND. */
export async function listCredentialsOfUser(tenantId: string, userId: string): Promise<Credential[]> {
  await requirePlatformUser(tenantId, userId);
  return selectUserCredentials(tenantId, userId);
}

/** One of the user's credentials; another user's is CREDENTIAL_NOT_FOUND. */
export async function getCredentialOfUser(
  tenantId: string,
  userId: string,
  credentialId: string,
): Promise<Credential> {
  await requirePlatformUser(tenantId, userId);
  const credential = await selectCredential(tenantId, credentialId);
  if (!credential || credential.userId !== userId) throw credentialNotFound();
  return credential;
}

/**
 * Deletes one of the user's credentials under the user's lock. Audited as
 * `webauthn.credential.delete.succeeded|failed`, the API key as the actor.
 */
export async function deleteCredentialOfUser(
  tenantId: string,
  userId: string,
  credentialId: string,
  context: AuditContext,
): Promise<void> {
  const type = "webauthn.credential.delete";
  await auditFailures(tenantId, type, context, () =>
    transaction(async () => {
      await requirePlatformUser(tenantId, userId, { lock: true });
      const deleted = await deleteUserCredentialRow(tenantId, userId, credentialId);
      if (!deleted) throw credentialNotFound();
      await recordAuditEvent(tenantId, {
        ...context,
        type: `${type}.succeeded`,
        details: { user_id: userId, credential_id: credentialId, mfa_only: deleted.isMfa },
      });
    }),
  );
}
