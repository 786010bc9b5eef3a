import type { AuditEvent } from "@/lib/audit";
import type { Credential } from "./credential";
import {
  deleteAllUserCredentialRows,
  deleteUserCredentialRow,
  insertCredential,
  insertCredentialWithAudit,
  updateCredentialUse,
} from "./store";

/*
 * Writes of a verified ceremony (lib/ceremonies/webauthn) and removals by other owners' rules (first
 * proof of an address, the console's operators). The user-facing and admin operations, with their audit
 * events, are in user-credentials.ts and admin-credentials.ts.
 */

/** A registered credential; undefined when the tenant already has one with this id (WebAuthn §7.1 step 26). */
export function saveCredential(
  values: Parameters<typeof insertCredential>[0],
): Promise<Credential | undefined> {
  return insertCredential(values);
}

/** `saveCredential` and its audit record in one statement; false (no record) when the id is taken. */
export function saveCredentialWithAudit(
  values: Parameters<typeof insertCredential>[0],
  audit: AuditEvent,
): Promise<boolean> {
  return insertCredentialWithAudit(values, audit);
}

/**
 * Records a successful assertion: the sign count is compared and set in one statement (of two racing
 * assertions with the same counter only one is accepted), with `audit` when given. False when the count
 * moved meanwhile.
 */
export function recordCredentialUse(
  tenantId: string,
  credentialId: string,
  use: { expectedSignCount: number; signCount: number; backupState: boolean },
  audit?: AuditEvent,
): Promise<boolean> {
  return updateCredentialUse(tenantId, credentialId, use, audit);
}

/** Removes one of the user's credentials, unaudited (the caller records it); undefined when it has none such. */
export function removeCredential(
  tenantId: string,
  userId: string,
  credentialId: string,
): Promise<Credential | undefined> {
  return deleteUserCredentialRow(tenantId, userId, credentialId);
}

/** Removes every WebAuthn credential of the user (passkeys and security keys); their ids. */
export function removeAllCredentials(tenantId: string, userId: string): Promise<string[]> {
  return deleteAllUserCredentialRows(tenantId, userId);
}
