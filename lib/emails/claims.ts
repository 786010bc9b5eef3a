import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import type { EmailRow } from "@/lib/db/schema";
import { detachPasscodes } from "@/lib/passcodes";
import type { Tenant } from "@/lib/tenants";
import { deleteEmailRow, selectEmailByAddress } from "./store";

/**
 * With verification required, an unverified address that is not its user's primary one is only a
 * claim: another user adding it (or signing up with it) takes it over; whoever verifies it keeps it.
 */
export function isClaimOnly(tenant: Tenant, row: EmailRow): boolean {
  return tenant.platform.emails.requireVerification && !row.verified && !row.isPrimary;
}

/**
 * Whether the address belongs to someone: any user's address, except an unverified claim that the
 * address's owner may take over by verifying it (`isClaimOnly`; only with verification required).
 */
export async function isAddressTaken(tenant: Tenant, address: string): Promise<boolean> {
  const existing = await selectEmailByAddress(tenant.id, address);
  return existing !== undefined && !isClaimOnly(tenant, existing);
}

/** Removes another user's unverified claim on an address (see isClaimOnly), keeping its codes' count. */
export async function releaseClaim(tenant: Tenant, row: EmailRow, context: AuditContext): Promise<void> {
  await detachPasscodes(tenant.id, row.id);
  await deleteEmailRow(tenant.id, row.id);
  await recordAuditEvent(tenant.id, {
    ...context,
    type: "email.claim_released",
    details: { userId: row.userId, emailId: row.id },
  });
}
