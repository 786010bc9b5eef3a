import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { webauthnCredentials } from "@/lib/db/schema";

/**
 * An SQL condition, for another module's query: the user in `userId` holds a passkey (a WebAuthn
 * credential that is not MFA-only) in the tenant. Lets lib/users filter and count in one query while
 * the credentials table stays this module's.
 */
export function hasPasskeyCondition(tenantId: string, userId: AnyPgColumn): SQL {
  return sql`exists (select 1 from ${webauthnCredentials} where ${webauthnCredentials.tenantId} = ${tenantId} and ${webauthnCredentials.userId} = ${userId} and not ${webauthnCredentials.isMfa})`;
}
