import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { verifiedPrimaryAddress } from "@/lib/emails";
import { getLogger } from "@/lib/log";
import { sendMail } from "@/lib/mail";
import type { Tenant } from "@/lib/tenants";

/**
 * Too many wrong authenticator-app codes after a proven first factor: audited (`otp.attempts_exceeded`)
 * and mailed to the user's verified primary address, since whoever typed them knows the first factor.
 * A mail that cannot be sent is logged; the login ends either way.
 */
export async function notifySecondFactorFailures(
  tenant: Tenant,
  userId: string,
  failures: number,
  context: AuditContext,
): Promise<void> {
  const to = await verifiedPrimaryAddress(tenant, userId);
  await recordAuditEvent(tenant.id, {
    ...context,
    actor: userId,
    type: "otp.attempts_exceeded",
    details: { userId, failures, notified: to !== undefined },
  });
  if (!to) return;
  try {
    await sendMail(tenant.id, {
      to,
      subject: `Failed sign-in attempts on your ${tenant.name} account`,
      text: [
        `Someone signed in to your ${tenant.name} account with its first factor (password or login code)`,
        `and then entered ${failures} wrong authenticator app codes in a row. The sign-in was stopped.`,
        "",
        "If this was not you, change your password now: your first factor may be known to someone else.",
        "",
      ].join("\n"),
    });
  } catch (error) {
    getLogger().error({ err: error, tenantId: tenant.id }, "could not mail the second-factor warning");
  }
}
