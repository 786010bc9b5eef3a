import type { AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { EmailRow } from "@/lib/db/schema";
import { confirmEmail, findUserEmails } from "@/lib/emails";
import type { Tenant } from "@/lib/tenants";
import { lockUser } from "@/lib/users";
import { isFirstProof, removeUnprovenAccess } from "./first-proof";

export interface VerifyEmailOptions {
  context: AuditContext;
  /**
   * The proof came with a session of the user. Without one, the account's first proven address
   * removes what was set up before it (`removeUnprovenAccess`: it may be a stranger's).
   */
  withSession: boolean;
  /** Added to the `email.verified` audit details (for example the flow's id). */
  details?: Record<string, unknown>;
}

/**
 * A code mailed to one of the user's addresses proved it: the account's first proof without a session
 * removes what was set up before it, then the address is verified (lib/emails `confirmEmail`: primary
 * when the user has none). Under the user's lock, in the caller's transaction if there is one. Undefined
 * when the user has no address with this id.
 */
export async function verifyEmail(
  tenant: Tenant,
  userId: string,
  emailId: string,
  options: VerifyEmailOptions,
): Promise<EmailRow | undefined> {
  const context = { ...options.context, actor: userId };
  return transaction(async () => {
    await lockUser(tenant.id, userId);
    const emails = await findUserEmails(tenant.id, userId);
    const email = emails.find((row) => row.id === emailId);
    if (!email) return undefined;
    if (!options.withSession && isFirstProof(emails, email)) {
      await removeUnprovenAccess(tenant, userId, email.id, context);
    }
    return confirmEmail(tenant, userId, emailId, { context: options.context, details: options.details });
  });
}
