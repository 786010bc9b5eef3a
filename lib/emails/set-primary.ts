import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { withOwnEmail } from "./own-email";
import { setPrimaryEmailRow } from "./store";

/**
 * Makes one of the user's addresses primary, under the user's lock; already primary is a no-op. With
 * verification required, only a verified address can become primary (it is the JWT's `email` claim
 * and where login codes go). Records `email.set_primary.succeeded`; true when the primary address changed (lib/accounts `setPrimary`
 * then adds the webhook event).
 */
export async function makePrimary(
  tenant: Tenant,
  userId: string,
  emailId: string,
  context: AuditContext,
): Promise<boolean> {
  return withOwnEmail(tenant.id, userId, emailId, async (email) => {
    if (email.isPrimary) return false;
    if (tenant.platform.emails.requireVerification && !email.verified) {
      throw new AppError("EMAIL_UNVERIFIED", undefined, {
        details: ["verify the address before making it primary"],
      });
    }
    await setPrimaryEmailRow(tenant.id, userId, email.id);
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "email.set_primary.succeeded",
      details: { userId, emailId: email.id },
    });
    return true;
  });
}
