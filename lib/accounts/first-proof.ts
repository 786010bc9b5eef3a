import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { removeAllCredentials } from "@/lib/credentials";
import type { EmailRow } from "@/lib/db/schema";
import { removeUserIdentities } from "@/lib/identities";
import { removeOtpSecret } from "@/lib/mfa";
import { discardPassword } from "@/lib/passwords";
import { endOtherSessions } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";

/**
 * Whether verifying `email` is the first proof that anyone controls the account: none of the user's
 * addresses was verified yet. Whoever set up credentials before it (when the tenant does not require
 * verification) may have signed up with somebody else's address.
 */
export function isFirstProof(emails: readonly EmailRow[], email: EmailRow): boolean {
  return !email.verified && !emails.some((row) => row.verified);
}

/**
 * The first proof of an account's address came from its mailbox, without a session of the account:
 * every way in set up before it may be a stranger's (pre-registration takeover: a sign-up with someone
 * else's address, or a provider asserting it unverified), so the passkeys, security keys, password,
 * authenticator app, third-party and SAML identities and sessions are all removed; only the proof itself
 * signs in. Call in the verifying transaction.
 */
export async function removeUnprovenAccess(
  tenant: Tenant,
  userId: string,
  emailId: string,
  context: AuditContext,
): Promise<void> {
  const credentials = await removeAllCredentials(tenant.id, userId);
  const password = await discardPassword(tenant.id, userId);
  const otp = await removeOtpSecret(tenant, userId);
  const identities = (await removeUserIdentities(tenant.id, userId)).map((row) => ({
    identity_id: row.id,
    kind: row.kind,
    provider: row.providerId,
  }));
  const sessions = await endOtherSessions(tenant, userId, undefined, context, "address first verified");
  if (credentials.length === 0 && !password && !otp && identities.length === 0 && sessions === 0) return;
  await recordAuditEvent(tenant.id, {
    ...context,
    actor: userId,
    type: "user.unproven_access_removed",
    details: { userId, emailId, credentialIds: credentials, password, otp, identities, sessions },
  });
}
