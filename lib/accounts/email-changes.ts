import type { AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { EmailRow } from "@/lib/db/schema";
import { addAddress, makePrimary, removeAddress, type AddAddressOptions } from "@/lib/emails";
import type { Tenant } from "@/lib/tenants";
import { emitWebhookEvent } from "@/lib/webhooks";
import { userEventData } from "./user-event-data";

/*
 * A user's addresses as the account sees them: lib/emails' rules (limits, claims, the user lock, audit),
 * then the `user.update.email.*` webhook event with the admin view of the user, in the same transaction.
 */

export interface AddEmailOptions extends AddAddressOptions {
  /** Part of a sign-up: its `user.create` webhook event reports the address (no `user.update.email.create`). */
  signUp?: boolean;
}

/** Adds an address to the user (lib/emails `addAddress`) and reports `user.update.email.create`. */
export async function addEmail(tenant: Tenant, userId: string, options: AddEmailOptions): Promise<EmailRow> {
  const { signUp, ...address } = options;
  return transaction(async () => {
    const row = await addAddress(tenant, userId, address);
    if (!signUp)
      await emitWebhookEvent(tenant.id, "user.update.email.create", () => userEventData(tenant.id, userId));
    return row;
  });
}

/** Removes one of the user's addresses (lib/emails `removeAddress`) and reports `user.update.email.delete`. */
export async function removeEmail(
  tenant: Tenant,
  userId: string,
  emailId: string,
  context: AuditContext,
): Promise<void> {
  await transaction(async () => {
    await removeAddress(tenant, userId, emailId, context);
    await emitWebhookEvent(tenant.id, "user.update.email.delete", () => userEventData(tenant.id, userId));
  });
}

/** Makes one of the user's addresses primary (lib/emails `makePrimary`); a change reports `user.update.email.primary`. */
export async function setPrimary(
  tenant: Tenant,
  userId: string,
  emailId: string,
  context: AuditContext,
): Promise<void> {
  await transaction(async () => {
    if (await makePrimary(tenant, userId, emailId, context))
      await emitWebhookEvent(tenant.id, "user.update.email.primary", () => userEventData(tenant.id, userId));
  });
}
