import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { IdentityRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { lockUser } from "@/lib/users";
import {
  deleteIdentityRow,
  deleteProviderIdentityRows,
  deleteUserIdentityRows,
  selectIdentity,
  selectUserIdentities,
} from "./store";
import type { IdentityKey, IdentityKind } from "./identity";

/** The tenant's identity for this provider account, whichever user holds it. */
export function findIdentity(tenantId: string, key: IdentityKey): Promise<IdentityRow | undefined> {
  return selectIdentity(tenantId, key);
}

/** The user's identities at third-party and SAML providers, oldest first. */
export async function listIdentities(tenantId: string, userId: string): Promise<IdentityRow[]> {
  return selectUserIdentities(tenantId, userId);
}

/**
 * Removes one of the user's identities (profile flow, admin API), under the user's lock; IDENTITY_NOT_FOUND
 * for another user's or an unknown id. Records `identity.deleted` (lib/accounts `removeIdentity` adds the
 * webhook event).
 */
export async function detachIdentity(
  tenant: Tenant,
  userId: string,
  identityId: string,
  context: AuditContext,
): Promise<IdentityRow> {
  return transaction(async () => {
    if (!(await lockUser(tenant.id, userId))) throw new AppError("USER_NOT_FOUND", "user not found");
    const row = await deleteIdentityRow(tenant.id, userId, identityId);
    if (!row) throw new AppError("IDENTITY_NOT_FOUND");
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "identity.deleted",
      details: { identity_id: row.id, kind: row.kind, provider: row.providerId },
    });
    return row;
  });
}

/**
 * Removes every identity of the user, in the caller's transaction under the user's lock (the first proof
 * of an address: `removeUnprovenAccess` in lib/emails, which audits it). Answers what was removed.
 */
export async function removeUserIdentities(tenantId: string, userId: string): Promise<IdentityRow[]> {
  return deleteUserIdentityRows(tenantId, userId);
}

/**
 * Removes every identity of a provider whose configuration was deleted (lib/thirdparty, lib/saml call it in
 * the deletion's transaction). Records `identity.provider_removed` with the count when there were any.
 */
export async function removeProviderIdentities(
  tenantId: string,
  kind: IdentityKind,
  providerId: string,
  context: AuditContext = {},
): Promise<number> {
  const count = await deleteProviderIdentityRows(tenantId, kind, providerId);
  if (count > 0) {
    await recordAuditEvent(tenantId, {
      ...context,
      type: "identity.provider_removed",
      details: { kind, provider: providerId, identities: count },
    });
  }
  return count;
}
