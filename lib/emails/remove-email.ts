import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { detachPasscodes } from "@/lib/passcodes";
import type { Tenant } from "@/lib/tenants";
import { withOwnEmail } from "./own-email";
import { countUserEmails, deleteEmailRow } from "./store";

/**
 * Removes one of the user's addresses, under the user's lock: never the primary one (so never the
 * last one), 409. Its codes keep counting against the address. Records `email.delete.succeeded` (lib/accounts `removeEmail` adds the webhook event).
 */
export async function removeAddress(
  tenant: Tenant,
  userId: string,
  emailId: string,
  context: AuditContext,
): Promise<void> {
  await withOwnEmail(tenant.id, userId, emailId, async (email) => {
    if (email.isPrimary) {
      throw new AppError("EMAIL_UNDELETABLE", undefined, {
        details: ["the primary address cannot be deleted: make another address primary first"],
      });
    }
    if ((await countUserEmails(tenant.id, userId)) <= 1) {
      throw new AppError("EMAIL_UNDELETABLE", undefined, { details: ["the last address cannot be deleted"] });
    }
    await detachPasscodes(tenant.id, email.id);
    await deleteEmailRow(tenant.id, email.id);
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "email.delete.succeeded",
      details: { userId, emailId: email.id },
    });
  });
}
