import { recordAuditEvent } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { isFirstProof, removeUnprovenAccess } from "@/lib/emails/first-proof";
import { findEmail, lockUser, markEmailVerified, selectUserEmails } from "@/lib/emails/store";
import type { FlowContext } from "@/lib/flows/definition";
import type { User } from "@/lib/users";

/**
 * A code mailed to an unverified address proves it: the address is verified (Hanko's login hook). When
 * it is the account's first proven address, what was set up before it is removed (`removeUnprovenAccess`).
 */
export async function verifyAddress(ctx: FlowContext, user: User, emailId: string | null): Promise<void> {
  if (!emailId) return;
  const verified = await transaction(async () => {
    // One transaction under the user's lock: the removal and the verification happen together or not.
    await lockUser(ctx.tenant.id, user.id);
    const email = await findEmail(ctx.tenant.id, emailId);
    if (!email || email.userId !== user.id || email.verified) return undefined;
    if (isFirstProof(await selectUserEmails(ctx.tenant.id, user.id), email)) {
      await removeUnprovenAccess(ctx.tenant, user.id, email.id, { ...ctx.audit, actor: user.id });
    }
    await markEmailVerified(ctx.tenant.id, email.id);
    return email;
  });
  if (!verified) return;
  await recordAuditEvent(ctx.tenant.id, {
    ...ctx.audit,
    actor: user.id,
    type: "email.verified",
    details: { userId: user.id, emailId: verified.id, flowId: ctx.flowId },
  });
}
