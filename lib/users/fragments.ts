import { getTableName, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { users } from "@/lib/db/schema";
import type { User } from "./user";
import { jsonValue } from "@/lib/db/json";

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

/**
 * The user's own sign-in noted (`last_sign_in_at`), only while the user is not locked, as a
 * data-modifying statement with `RETURNING id` for another module's `WITH`: lib/sessions starts a
 * session from it in one statement, holding the user's row until its transaction ends (a lock being set
 * concurrently waits, then ends the new session).
 */
export function signInNoted(tenantId: string | Placeholder, userId: string | Placeholder): SQL {
  return sql`update ${users} set last_sign_in_at = now()
    where tenant_id = ${tenantId}::uuid and id = ${userId}::uuid and locked_at is null returning id`;
}

/**
 * The tenant's user named by `userId`, another table's column, as one JSON value (a scalar subquery; null
 * when there is no such user), for another module's statement that needs the whole owner with its own
 * row: `userFromJson` reads it back.
 */
export function userJsonOf(tenantId: string | Placeholder, userId: AnyPgColumn): SQL<unknown> {
  const outer = sql`${sql.identifier(getTableName(userId.table))}.${sql.identifier(userId.name)}`;
  return sql`(select row_to_json(u) from ${users} u where u.tenant_id = ${tenantId}::uuid and u.id = ${outer})`;
}

/** A user as `userJsonOf` gives it (a driver may hand JSON over as text); undefined for null. */
export function userFromJson(value: unknown): User | undefined {
  if (value === null || value === undefined) return undefined;
  const row = jsonValue<Record<string, string | null>>(value);
  const date = (text: string | null) => (text === null ? null : new Date(text));
  return {
    id: row.id!,
    tenantId: row.tenant_id!,
    externalId: row.external_id ?? null,
    username: row.username ?? null,
    displayName: row.display_name ?? null,
    icon: row.icon ?? null,
    name: row.name ?? null,
    givenName: row.given_name ?? null,
    familyName: row.family_name ?? null,
    picture: row.picture ?? null,
    lockedAt: date(row.locked_at ?? null),
    lastSignInAt: date(row.last_sign_in_at ?? null),
    createdAt: new Date(row.created_at!),
    updatedAt: new Date(row.updated_at!),
  };
}

/**
 * True for a row of another table whose `userId` column names an unlocked user of the tenant, as SQL for
 * that module's statement (lib/credentials' sign count update refuses a locked owner with it).
 */
export function ownerIsUnlocked(tenantId: string | Placeholder, userId: AnyPgColumn): SQL<boolean> {
  const outer = sql`${sql.identifier(getTableName(userId.table))}.${sql.identifier(userId.name)}`;
  return sql<boolean>`exists (select 1 from ${users} u
    where u.tenant_id = ${tenantId}::uuid and u.id = ${outer} and u.locked_at is null)`;
}
