import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Credential } from "./credential";
import { deleteUserCredentialRow, selectUserCredentials, updateUserCredentialName } from "./store";

/**
 * The signed-in user's own credentials (public API). Another user's or tenant's credential, or an
 * unknown id, is the same 404 with the spec's text `Not found`.
 */
const notFound = () => new AppError("CREDENTIAL_NOT_FOUND", "Not found");

/** The user's passkeys and MFA keys, oldest first. */
export function listUserCredentials(tenantId: string, userId: string): Promise<Credential[]> {
  return selectUserCredentials(tenantId, userId);
}

/** Changes the display label of one of the user's credentials. */
export async function renameUserCredential(
  tenantId: string,
  userId: string,
  credentialId: string,
  name: string,
  context: AuditContext,
): Promise<Credential> {
  const type = "webauthn.credential.update";
  return auditFailures(tenantId, type, { ...context, actor: userId }, () =>
    transaction(async () => {
      const updated = await updateUserCredentialName(tenantId, userId, credentialId, name);
      if (!updated) throw notFound();
      await recordAuditEvent(tenantId, {
        ...context,
        actor: userId,
        type: `${type}.succeeded`,
        details: { credential_id: credentialId, name },
      });
      return updated;
    }),
  );
}

/** Deletes one of the user's credentials: it can no longer finish any ceremony. */
export async function deleteUserCredential(
  tenantId: string,
  userId: string,
  credentialId: string,
  context: AuditContext,
): Promise<void> {
  const type = "webauthn.credential.delete";
  await auditFailures(tenantId, type, { ...context, actor: userId }, () =>
    transaction(async () => {
      const deleted = await deleteUserCredentialRow(tenantId, userId, credentialId);
      if (!deleted) throw notFound();
      await recordAuditEvent(tenantId, {
        ...context,
        actor: userId,
        type: `${type}.succeeded`,
        details: { credential_id: credentialId },
      });
    }),
  );
}
