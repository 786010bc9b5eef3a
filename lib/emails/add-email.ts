import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { EmailRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { lockUser } from "@/lib/users";
import { isClaimOnly, releaseClaim } from "./claims";
import { EmailLimitReached, EmailTaken } from "./errors";
import { countUserEmails, selectEmailByAddress, insertEmail, selectUserEmails } from "./store";

export interface AddAddressOptions {
  /** Already normalised (`normalizeAddress`). */
  address: string;
  /** The caller proved the address (a code it mailed was entered). */
  verified: boolean;
  context: AuditContext;
  /** Whether another user's mere claim on the address (`isClaimOnly`) is taken over; default yes. */
  takeOverClaim?: boolean;
}

/**
 * Adds an address to the user, under the user's lock, within the tenant's maximum per user
 * (`EmailLimitReached`); primary when the user has none yet. An address the user or another account
 * already holds is `EmailTaken`, unless it is only another user's claim, which is released first.
 * Records `email.create.succeeded` (lib/accounts `addEmail` adds the webhook event).
 */
export async function addAddress(
  tenant: Tenant,
  userId: string,
  options: AddAddressOptions,
): Promise<EmailRow> {
  const { address, verified, context, takeOverClaim = true } = options;
  return transaction(async () => {
    if (!(await lockUser(tenant.id, userId))) throw new AppError("USER_NOT_FOUND", "user not found");
    const max = tenant.platform.emails.maxPerUser;
    if ((await countUserEmails(tenant.id, userId)) >= max) throw new EmailLimitReached(max);
    const existing = await selectEmailByAddress(tenant.id, address);
    if (existing?.userId === userId) throw new EmailTaken(true);
    if (existing && !(takeOverClaim && isClaimOnly(tenant, existing))) throw new EmailTaken(false);
    if (existing) await releaseClaim(tenant, existing, context);
    const hasPrimary = (await selectUserEmails(tenant.id, userId)).some((email) => email.isPrimary);
    const row = await insertEmail({ tenantId: tenant.id, userId, address, verified, isPrimary: !hasPrimary });
    // A concurrent insert of the same address (another user's) won.
    if (!row) throw new EmailTaken(false);
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "email.create.succeeded",
      details: { userId, emailId: row.id, ...(verified ? { verified } : {}) },
    });
    return row;
  });
}
