import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { OtpSecretRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { requirePlatformUser } from "@/lib/users";
import { deleteOtpSecret, selectOtpSecret } from "./store";

// The admin API's view of a user's authenticator app (TOTP secret), with the API key as the actor. An
// unknown user, another tenant's or a Passkey API user is USER_NOT_FOUND (`requirePlatformUser`).

const otpNotFound = () =>
  new AppError("OTP_SECRET_NOT_FOUND", undefined, {
    details: ["the user has no authenticator app (OTP secret)"],
  });

/** The user's TOTP secret row (never the secret on any wire); OTP_SECRET_NOT_FOUND when there is none. */
export async function getOtpOfUser(tenantId: string, userId: string): Promise<OtpSecretRow> {
  await requirePlatformUser(tenantId, userId);
  const row = await selectOtpSecret(tenantId, userId);
  if (!row) throw otpNotFound();
  return row;
}

/**
 * Removes the user's authenticator app under the user's lock: its codes no longer complete a login.
 * Audited as `otp_secret.delete.succeeded|failed`, the API key as the actor.
 */
export async function deleteOtpOfUser(
  tenantId: string,
  userId: string,
  context: AuditContext,
): Promise<void> {
  const type = "otp_secret.delete";
  await auditFailures(tenantId, type, context, () =>
    transaction(async () => {
      await requirePlatformUser(tenantId, userId, { lock: true });
      if (!(await deleteOtpSecret(tenantId, userId))) throw otpNotFound();
      await recordAuditEvent(tenantId, { ...context, type: `${type}.succeeded`, details: { userId } });
    }),
  );
}
