import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { emitConsentEvent } from "./events";
import { deleteAccountClientModels, deleteConsent, selectConsentsWithClients } from "./store";

/** An application the user allowed to sign them in (a consent to a third-party client). */
export interface ConnectedApp {
  clientId: string;
  name: string | null;
  scopes: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** The apps the user consented to, oldest first (first-party clients never ask, so are not listed). */
export async function listConnectedApps(tenantId: string, userId: string): Promise<ConnectedApp[]> {
  const rows = await selectConsentsWithClients(tenantId, userId);
  return rows.map(({ consent, metadata }) => ({
    clientId: consent.clientId,
    name: typeof metadata.client_name === "string" ? metadata.client_name : null,
    scopes: consent.scopes,
    createdAt: consent.createdAt,
    updatedAt: consent.updatedAt,
  }));
}

/**
 * The user withdraws a consent: the app's grants, codes, access and refresh tokens for the user go with
 * it, and its next authorization asks again. Another user's or tenant's consent is a 404.
 */
export async function revokeConnectedApp(
  tenantId: string,
  userId: string,
  clientId: string,
  context: AuditContext,
): Promise<void> {
  await transaction(async () => {
    if (!(await deleteConsent(tenantId, userId, clientId))) {
      throw new AppError("OAUTH_CONSENT_NOT_FOUND", "no such connected app");
    }
    const revoked = await deleteAccountClientModels(tenantId, userId, clientId);
    await recordAuditEvent(tenantId, {
      ...context,
      actor: userId,
      type: "oauth.consent.revoked",
      details: { clientId, userId, revokedModels: revoked },
    });
    await emitConsentEvent(tenantId, "oauth_consent.revoke", { userId, clientId });
  });
}
