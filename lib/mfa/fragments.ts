import { sql, type SQL } from "drizzle-orm";
import { otpSecrets } from "@/lib/db/schema";

/*
 * SQL for other owners' statements (never run here), so that a statement of another module can read the
 * MFA state of a user while the `otp_secrets` table stays this module's.
 */

/** Whether the user has set up an authenticator app (a TOTP secret), as a boolean expression. */
export function hasOtpSecretOf(tenantId: string, userId: string): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${otpSecrets} o
    where o.tenant_id = ${tenantId}::uuid and o.user_id = ${userId}::uuid)`;
}
