import { recordAuditEvent } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { isClaimOnly, releaseClaim } from "@/lib/emails";
import {
  countUserEmails,
  findEmail,
  findEmailByAddress,
  insertEmail,
  lockUser,
  markEmailVerified,
  selectUserEmails,
  setPrimaryEmailRow,
} from "@/lib/emails/store";
import type { FlowContext } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import type { User } from "@/lib/users";
import { notFound } from "./profile";

export const emailTaken = (input?: string) =>
  new FlowError("email_already_exists", "The email address already exists", input ? { input } : {});

/**
 * A verified address proven by a code (`email_create` with verification): added verified, primary if
 * the user has none. Another user's mere claim on it is released (see `isClaimOnly`).
 */
export async function addVerifiedEmail(ctx: FlowContext, user: User, address: string): Promise<void> {
  const { tenant } = ctx;
  await transaction(async () => {
    await lockUser(tenant.id, user.id);
    if ((await countUserEmails(tenant.id, user.id)) >= tenant.platform.emails.maxPerUser) {
      throw new FlowError("operation_not_permitted_error", "Maximum number of email addresses reached");
    }
    const existing = await findEmailByAddress(tenant.id, address);
    if (existing && (existing.userId === user.id || !isClaimOnly(tenant, existing))) throw emailTaken();
    if (existing) await releaseClaim(tenant, existing, ctx.audit);
    const hasPrimary = (await selectUserEmails(tenant.id, user.id)).some((email) => email.isPrimary);
    const row = await insertEmail({
      tenantId: tenant.id,
      userId: user.id,
      address,
      verified: true,
      isPrimary: !hasPrimary,
    });
    if (!row) throw emailTaken();
    await recordAuditEvent(tenant.id, {
      ...ctx.audit,
      type: "email.create.succeeded",
      details: { userId: user.id, emailId: row.id, verified: true },
    });
  });
}

/** One of the user's addresses proven by a code (`email_verify`): verified, primary if none is. */
export async function markVerified(ctx: FlowContext, user: User, emailId: string): Promise<void> {
  const { tenant } = ctx;
  await transaction(async () => {
    await lockUser(tenant.id, user.id);
    const email = await findEmail(tenant.id, emailId);
    if (!email || email.userId !== user.id) throw notFound("Email");
    if (!email.verified) {
      await markEmailVerified(tenant.id, email.id);
      await recordAuditEvent(tenant.id, {
        ...ctx.audit,
        type: "email.verified",
        details: { userId: user.id, emailId: email.id },
      });
    }
    const emails = await selectUserEmails(tenant.id, user.id);
    if (!emails.some((row) => row.isPrimary)) await setPrimaryEmailRow(tenant.id, user.id, email.id);
  });
}
