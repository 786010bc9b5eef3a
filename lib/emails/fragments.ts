import { getTableName, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { likePattern } from "@/lib/db/like";
import { emails, type EmailRow } from "@/lib/db/schema";
import { jsonValue } from "@/lib/db/json";

/*
 * SQL for other owners' statements (never run here): conditions on the `emails` table, so that a query of
 * another module filters in the database while the table stays this module's.
 */

/**
 * A condition on a user's id: the user holds an address containing `fragment` (lower-case), for the admin
 * list's search (lib/users filters its page and count with it in the database).
 */
export function holdsAddressLike(tenantId: string, fragment: string): (userId: AnyPgColumn) => SQL {
  return (userId) =>
    sql`exists (select 1 from ${emails} where ${emails.userId} = ${userId} and ${emails.tenantId} = ${tenantId} and ${emails.address} like ${likePattern(fragment)})`;
}

/**
 * The user's addresses, oldest first, as one JSON array (a scalar subquery for another module's statement
 * that reads several owners' rows of one user at once); `emailsFromJson` reads it back.
 */
export function userEmailsJsonOf(tenantId: string, userId: string): SQL<unknown> {
  return sql`(select coalesce(json_agg(row_to_json(e) order by e.created_at, e.id), '[]'::json) from ${emails} e
    where e.tenant_id = ${tenantId}::uuid and e.user_id = ${userId}::uuid)`;
}

/** The rows of `userEmailsJsonOf` (a driver may hand JSON over as text). */
export function emailsFromJson(value: unknown): EmailRow[] {
  const rows = jsonValue<Record<string, unknown>[]>(value);
  return rows.map((row) => ({
    id: row.id as string,
    tenantId: row.tenant_id as string,
    userId: row.user_id as string,
    address: row.address as string,
    verified: row.verified as boolean,
    isPrimary: row.is_primary as boolean,
    createdAt: new Date(row.created_at as string),
    updatedAt: new Date(row.updated_at as string),
  }));
}

/** A user's primary address as another owner's statement reads it (null when the user has none). */
export interface PrimaryAddress {
  address: string;
  verified: boolean;
}

/**
 * The primary address of the tenant's user named by `userId` (another table's column, or an id) as a
 * scalar subquery, for a statement of another module that reads it with its own row in one round trip
 * (lib/openid's claims, lib/sessions' sign-in); null when the user has none.
 */
export function primaryAddressOf(
  tenantId: string | Placeholder,
): (userId: AnyPgColumn | string | Placeholder) => SQL<PrimaryAddress | null> {
  return (userId) => {
    // A column qualified by table: drizzle writes a single-table query's columns unqualified, and an
    // unqualified name inside the subquery would mean the emails table's own column.
    const user =
      typeof userId === "object" && "table" in userId
        ? sql`${sql.identifier(getTableName(userId.table))}.${sql.identifier(userId.name)}`
        : sql`${userId}::uuid`;
    return sql`(select json_build_object('address', e.address, 'verified', e.verified)
      from ${emails} e where e.tenant_id = ${tenantId}::uuid and e.user_id = ${user} and e.is_primary
      limit 1)`.mapWith((value: unknown) => jsonValue<PrimaryAddress | null>(value));
  };
}
