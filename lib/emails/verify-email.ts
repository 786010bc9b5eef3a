import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { EmailRow } from "@/lib/db/schema";
import type { Tenant } from "@/lib/tenants";
import { lockUser } from "@/lib/users";
import { markEmailVerified, selectUserEmails, setPrimaryEmailRow } from "./store";

export interface ConfirmEmailOptions {
  context: AuditContext;
  /** Added to the `email.verified` audit details (for example the flow's id). */
  details?: Record<string, unknown>;
}

/**
 * A code mailed to one of the user's addresses proved it: the address is verified and, as in Hanko,
 * becomes primary only when the user has no primary address yet. Under the user's lock, in the
 * caller's transaction if there is one (lib/accounts `verifyEmail` first applies the first-proof rule). Records `email.verified` (only when it was not verified
 * before) and `email.primary_changed`. Undefined when the user has no address with this id.
 */
export async function confirmEmail(
  tenant: Tenant,
  userId: string,
  emailId: string,
  options: ConfirmEmailOptions,
): Promise<EmailRow | undefined> {
  const context = { ...options.context, actor: userId };
  return transaction(async () => {
    await lockUser(tenant.id, userId);
    const emails = await selectUserEmails(tenant.id, userId);
    const email = emails.find((row) => row.id === emailId);
    if (!email) return undefined;
    if (!email.verified) {
      await markEmailVerified(tenant.id, email.id);
      await recordAuditEvent(tenant.id, {
        ...context,
        type: "email.verified",
        details: { userId, emailId: email.id, ...options.details },
      });
    }
    if (!emails.some((row) => row.isPrimary)) {
      await setPrimaryEmailRow(tenant.id, userId, email.id);
      await recordAuditEvent(tenant.id, {
        ...context,
        type: "email.primary_changed",
        details: { userId, emailId: email.id },
      });
    }
    return { ...email, verified: true, isPrimary: email.isPrimary || !emails.some((row) => row.isPrimary) };
  });
}
