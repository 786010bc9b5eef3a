import { and, eq, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { users } from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";
import { toUser, type User } from "./user";

export interface ExternalUserProfile {
  externalId: string;
  username: string;
  displayName: string;
  icon: string | null;
}

/** Creates the user with this external id, or overwrites its profile (as Hanko does on every registration). */
export async function upsertExternalUser(tenantId: string, profile: ExternalUserProfile): Promise<User> {
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

export async function findUserByExternalId(tenantId: string, externalId: string): Promise<User | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.externalId, externalId)))
    .limit(1);
  return row ? toUser(row) : undefined;
}

export async function findUser(tenantId: string, userId: string): Promise<User | undefined> {
  if (!UUID_PATTERN.test(userId)) return undefined;
  const db = await executor();
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .limit(1);
  return row ? toUser(row) : undefined;
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
export async function lockUser(tenantId: string, userId: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .for("update");
  return rows.length === 1;
}
