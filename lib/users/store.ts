import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { executor, likePattern } from "@/lib/db";
import { users } from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";
import {
  toUser,
  type ExternalUserProfile,
  type NewAdminUser,
  type PlatformUserFilter,
  type User,
  type UserProfileChanges,
} from "./user";

/** Creates the user with this external id, or overwrites its profile (as Hanko does on every registration). */
export async function upsertExternalUserRow(tenantId: string, profile: ExternalUserProfile): Promise<User> {
  const db = await executor();
  const [row] = await db
    .insert(users)
    .values({ tenantId, ...profile })
    .onConflictDoUpdate({
      target: [users.tenantId, users.externalId],
      set: {
        username: profile.username,
        displayName: profile.displayName,
        icon: profile.icon,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return toUser(row!);
}

export async function selectUserByExternalId(
  tenantId: string,
  externalId: string,
): Promise<User | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.externalId, externalId)))
    .limit(1);
  return row ? toUser(row) : undefined;
}

export async function selectUser(tenantId: string, userId: string): Promise<User | undefined> {
  if (!UUID_PATTERN.test(userId)) return undefined;
  const db = await executor();
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .limit(1);
  return row ? toUser(row) : undefined;
}

/**
 * {@link selectUser} with one more value of another owner's SQL about that user (a fragment given the
 * users table's id column), in the same statement.
 */
export async function selectUserWith<T>(
  tenantId: string,
  userId: string,
  extra: (userId: typeof users.id) => SQL<T>,
): Promise<{ user: User; extra: T } | undefined> {
  if (!UUID_PATTERN.test(userId)) return undefined;
  const db = await executor();
  const [row] = await db
    .select({ user: users, extra: extra(users.id) })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .limit(1);
  return row ? { user: toUser(row.user), extra: row.extra } : undefined;
}

/** A user of the public API: known by its id, no external id. */
export async function insertUser(tenantId: string): Promise<User> {
  const db = await executor();
  const [row] = await db.insert(users).values({ tenantId }).returning();
  return toUser(row!);
}

/** A platform user (no external id) with its pre-generated id; undefined when the username is taken. */
export async function insertPlatformUser(
  tenantId: string,
  id: string,
  username: string | null,
): Promise<User | undefined> {
  const db = await executor();
  const [row] = await db.insert(users).values({ tenantId, id, username }).onConflictDoNothing().returning();
  return row ? toUser(row) : undefined;
}

/** Deletes the user; the database cascades to everything of theirs (sessions, emails, credentials…). */
export async function deleteUserRow(tenantId: string, userId: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .delete(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .returning({ id: users.id });
  return rows.length === 1;
}

/**
 * Takes the user's row lock until the transaction ends: the one lock that serialises changes to a
 * user's addresses and credentials. False when the tenant has no such user.
 */
export async function selectUserForUpdate(tenantId: string, userId: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .for("update");
  return rows.length === 1;
}

/** A platform user with the admin's id, username and creation time; undefined when the id or username is taken. */
export async function insertAdminUser(tenantId: string, input: NewAdminUser): Promise<User | undefined> {
  const db = await executor();
  const { id, username, createdAt } = input;
  const [row] = await db
    .insert(users)
    .values({ tenantId, id, username, ...(createdAt ? { createdAt, updatedAt: createdAt } : {}) })
    .onConflictDoNothing()
    .returning();
  return row ? toUser(row) : undefined;
}

function platformUserConditions(tenantId: string, filter: PlatformUserFilter) {
  const conditions = [eq(users.tenantId, tenantId), isNull(users.externalId)];
  if (filter.userIds && filter.userIds.length > 0) conditions.push(inArray(users.id, filter.userIds));
  // Filtered by the database so the page and the count agree.
  const byAddress = filter.address?.(users.id);
  const byUsername =
    filter.username === undefined
      ? undefined
      : sql`lower(${users.username}) like ${likePattern(filter.username)}`;
  const search = byAddress && byUsername ? or(byAddress, byUsername) : (byAddress ?? byUsername);
  if (search) conditions.push(search);
  for (const condition of filter.conditions ?? []) conditions.push(condition(users.id));
  return and(...conditions);
}

/** A page of the tenant's platform users, by creation time (then id). */
export async function selectPlatformUsers(
  tenantId: string,
  filter: PlatformUserFilter,
  page: { offset: number; limit: number; direction: "asc" | "desc" },
): Promise<User[]> {
  const db = await executor();
  const order = page.direction === "asc" ? asc : desc;
  const rows = await db
    .select()
    .from(users)
    .where(platformUserConditions(tenantId, filter))
    .orderBy(order(users.createdAt), order(users.id))
    .offset(page.offset)
    .limit(page.limit);
  return rows.map(toUser);
}

export async function countPlatformUsers(tenantId: string, filter: PlatformUserFilter): Promise<number> {
  const db = await executor();
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(platformUserConditions(tenantId, filter));
  return Number(row?.count ?? 0);
}

/** The profile fields the admin API changes; a field left out stays, `null` clears it. */

/** Writes the changes to a platform user (the unique index on usernames may refuse). */
export async function updatePlatformUser(
  tenantId: string,
  userId: string,
  changes: UserProfileChanges,
): Promise<User | undefined> {
  const db = await executor();
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId), isNull(users.externalId)))
    .returning();
  return row ? toUser(row) : undefined;
}

/** How many users (platform and Passkey API) each of these tenants has; a tenant without users is absent. */
export async function selectUserCountsByTenant(tenantIds: string[]): Promise<Map<string, number>> {
  if (tenantIds.length === 0) return new Map();
  const db = await executor();
  const rows = await db
    .select({ tenantId: users.tenantId, count: sql<number>`count(*)::int` })
    .from(users)
    .where(inArray(users.tenantId, tenantIds))
    .groupBy(users.tenantId);
  return new Map(rows.map((row) => [row.tenantId, Number(row.count)]));
}

/** Writes a platform user's username (`null` removes it); the unique index on usernames may refuse. */
export async function updatePlatformUsername(
  tenantId: string,
  userId: string,
  username: string | null,
): Promise<User | undefined> {
  const db = await executor();
  const [row] = await db
    .update(users)
    .set({ username, updatedAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId), isNull(users.externalId)))
    .returning();
  return row ? toUser(row) : undefined;
}

/** The platform user (no external id) with this username, compared case-insensitively. */
export async function selectUserByUsername(tenantId: string, username: string): Promise<User | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        isNull(users.externalId),
        sql`lower(${users.username}) = lower(${username})`,
      ),
    )
    .limit(1);
  return row ? toUser(row) : undefined;
}

/** Sets (now) or clears the platform user's lock; undefined when there is no such platform user. */
export async function updateUserLock(
  tenantId: string,
  userId: string,
  locked: boolean,
): Promise<User | undefined> {
  const db = await executor();
  const [row] = await db
    .update(users)
    .set({ lockedAt: locked ? sql`now()` : null, updatedAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId), isNull(users.externalId)))
    .returning();
  return row ? toUser(row) : undefined;
}

/**
 * Whether the user is locked, read under a share lock on the row until the transaction ends (a lock set
 * concurrently waits). Undefined when there is no such user.
 */
export async function selectLockedAt(tenantId: string, userId: string): Promise<Date | null | undefined> {
  if (!UUID_PATTERN.test(userId)) return undefined;
  const db = await executor();
  const [row] = await db
    .select({ lockedAt: users.lockedAt })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .for("share");
  return row ? row.lockedAt : undefined;
}
