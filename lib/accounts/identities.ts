import type { AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { IdentityRow } from "@/lib/db/schema";
import { detachIdentity } from "@/lib/identities";
import type { Tenant } from "@/lib/tenants";
import { emitWebhookEvent } from "@/lib/webhooks";
import { userEventData } from "./user-event-data";

/**
 * Removes one of the user's identities (profile flow, admin API: lib/identities `detachIdentity`) and
 * reports `user.update` with the user as it is after the removal.
 */
export async function removeIdentity(
  tenant: Tenant,
  userId: string,
  identityId: string,
  context: AuditContext,
): Promise<IdentityRow> {
  return transaction(async () => {
    const row = await detachIdentity(tenant, userId, identityId, context);
    await emitWebhookEvent(tenant.id, "user.update", () => userEventData(tenant.id, userId));
    return row;
  });
}
