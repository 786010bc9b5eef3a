import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { webauthnCredentials, type WebauthnCredentialRow } from "@/lib/db/schema";
import { jsonValue } from "@/lib/db/json";

/**
 * An SQL condition, for another module's query: the user in `userId` holds a passkey (a WebAuthn
 * credential that is not MFA-only) in the tenant. Lets lib/users filter and count in one query while
 * the credentials table stays this module's.
 */
export function hasPasskeyCondition(tenantId: string, userId: AnyPgColumn): SQL {
  return sql`exists (select 1 from ${webauthnCredentials} where ${webauthnCredentials.tenantId} = ${tenantId} and ${webauthnCredentials.userId} = ${userId} and not ${webauthnCredentials.isMfa})`;
}

/**
 * The user's WebAuthn credentials, oldest first, as one JSON array (a scalar subquery for another
 * module's statement that reads several owners' rows of one user at once); `credentialsFromJson` reads it.
 */
export function userCredentialsJsonOf(tenantId: string, userId: string): SQL<unknown> {
  return sql`(select coalesce(json_agg(row_to_json(c) order by c.created_at, c.id), '[]'::json)
    from ${webauthnCredentials} c where c.tenant_id = ${tenantId}::uuid and c.user_id = ${userId}::uuid)`;
}

/** The rows of `userCredentialsJsonOf` (a driver may hand JSON over as text). */
export function credentialsFromJson(value: unknown): WebauthnCredentialRow[] {
  const rows = jsonValue<Record<string, unknown>[]>(value);
  return rows.map((row) => ({
    tenantId: row.tenant_id as string,
    id: row.id as string,
    userId: row.user_id as string,
    name: row.name as string,
    publicKey: row.public_key as string,
    signCount: Number(row.sign_count),
    transports: row.transports as string[],
    aaguid: row.aaguid as string,
    attestationType: row.attestation_type as string,
    backupEligible: row.backup_eligible as boolean,
    backupState: row.backup_state as boolean,
    userVerified: row.user_verified as boolean,
    isMfa: row.is_mfa as boolean,
    createdAt: new Date(row.created_at as string),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at as string),
  }));
}
