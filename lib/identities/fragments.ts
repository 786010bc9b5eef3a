import { sql, type SQL } from "drizzle-orm";
import { identities, type IdentityRow } from "@/lib/db/schema";
import { jsonValue } from "@/lib/db/json";

/*
 * SQL for other owners' statements (never run here), so that a statement of another module can read a
 * user's identities while the `identities` table stays this module's.
 */

/** What a profile shows of an identity: which provider, and the subject there. */
export type IdentityListing = Pick<IdentityRow, "id" | "kind" | "providerId" | "subject">;

/**
 * The user's identities (third-party and SAML), oldest first, as one JSON array of their listings (no
 * claims, no tokens), a scalar subquery; `identityListingsFromJson` reads it back.
 */
export function userIdentityListingsJsonOf(tenantId: string, userId: string): SQL<unknown> {
  return sql`(select coalesce(json_agg(json_build_object('id', i.id, 'kind', i.kind,
      'provider_id', i.provider_id, 'subject', i.subject) order by i.created_at, i.id), '[]'::json)
    from ${identities} i where i.tenant_id = ${tenantId}::uuid and i.user_id = ${userId}::uuid)`;
}

/** The listings of `userIdentityListingsJsonOf` (a driver may hand JSON over as text). */
export function identityListingsFromJson(value: unknown): IdentityListing[] {
  const rows = jsonValue<Record<string, unknown>[]>(value);
  return rows.map((row) => ({
    id: row.id as string,
    kind: row.kind as IdentityRow["kind"],
    providerId: row.provider_id as string,
    subject: row.subject as string,
  }));
}
