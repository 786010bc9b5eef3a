import { getTableName, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { users } from "@/lib/db/schema";

/**
 * The external id of the tenant's user named by `userId`, another table's column, as a scalar subquery:
 * for a statement of another module that needs it with its own row, in one round trip. Null for a
 * platform user (and when there is no such user). In fragments.ts (SQL for other owners' statements,
 * never run here), so the modules using it do not import the users store.
 */
export function externalIdOf(tenantId: string, userId: AnyPgColumn): SQL<string | null> {
  // Both sides qualified by table: drizzle writes a single-table query's columns unqualified, and an
  // unqualified name inside the subquery would mean the users table's own column.
  const outer = sql`${sql.identifier(getTableName(userId.table))}.${sql.identifier(userId.name)}`;
  return sql<string | null>`(select u.external_id from ${users} u
    where u.tenant_id = ${tenantId}::uuid and u.id = ${outer})`;
}

/**
 * The id of the tenant's user with this external id as a scalar subquery (null when there is none), for
 * another module's statement that selects that user's rows in one round trip.
 */
export function userIdByExternalId(tenantId: string, externalId: string): SQL<string | null> {
  return sql<string | null>`(select u.id from ${users} u
    where u.tenant_id = ${tenantId}::uuid and u.external_id = ${externalId})`;
}

/**
 * The tenant's user with this external id as scalar subqueries (each null when there is none): its id,
 * username and whether it is locked, for another module's statement that reads them with its own rows
 * (lib/uaf-requests: the user and their registrations in one round trip).
 */
export function userByExternalId(
  tenantId: string,
  externalId: string,
): { id: SQL<string | null>; username: SQL<string | null>; locked: SQL<boolean | null> } {
  const of = (column: SQL) => sql`(select ${column} from ${users} u
    where u.tenant_id = ${tenantId}::uuid and u.external_id = ${externalId})`;
  return {
    id: userIdByExternalId(tenantId, externalId),
    username: of(sql`u.username`) as SQL<string | null>,
    locked: of(sql`u.locked_at is not null`) as SQL<boolean | null>,
  };
}

/**
 * Whether the tenant's user named by `userId`, another table's text column (an id as text, as
 * oidc-provider's account ids are), exists and is not locked, as SQL for another module's statement:
 * lib/openid refuses the tokens of a deleted or locked user in the statement that loads them.
 */
export function userIsActive(tenantId: string, userId: AnyPgColumn): SQL<boolean> {
  const outer = sql`${sql.identifier(getTableName(userId.table))}.${sql.identifier(userId.name)}`;
  return sql<boolean>`exists (select 1 from ${users} u
    where u.tenant_id = ${tenantId}::uuid and u.id::text = ${outer} and u.locked_at is null)`;
}
