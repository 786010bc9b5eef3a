import { and, asc, eq, gt, inArray, lt, ne, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { sessions, type SessionRow } from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";

export async function insertSession(
  values: Omit<typeof sessions.$inferInsert, "expiresAt"> & { lifetimeSeconds: number },
): Promise<SessionRow> {
  const { lifetimeSeconds, ...rest } = values;
  const db = await executor();
  const [row] = await db
    .insert(sessions)
    .values({ ...rest, expiresAt: sql`now() + make_interval(secs => ${lifetimeSeconds})` })
    .returning();
  return row!;
}

/** Keeps the newest `limit` sessions of the user and deletes the rest; returns the deleted rows. */
export async function trimSessions(tenantId: string, userId: string, limit: number): Promise<SessionRow[]> {
  const db = await executor();
  // One statement: the sessions past the newest `limit`, deleted and returned.
  const surplus = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId)))
    .orderBy(sql`${sessions.createdAt} desc`, sql`${sessions.id} desc`)
    .offset(limit);
  return db
    .delete(sessions)
    .where(and(eq(sessions.tenantId, tenantId), inArray(sessions.id, surplus)))
    .returning();
}

/**
 * The live session (not expired, not idle for longer than `idleTimeoutSeconds` when that is on) and
 * marks it used, in one statement; an idle or expired one is deleted and not returned.
 */
export async function touchSession(
  tenantId: string,
  sessionId: string,
  idleTimeoutSeconds: number,
): Promise<SessionRow | undefined> {
  if (!UUID_PATTERN.test(sessionId)) return undefined;
  const db = await executor();
  const fresh = and(
    eq(sessions.tenantId, tenantId),
    eq(sessions.id, sessionId),
    gt(sessions.expiresAt, sql`now()`),
    idleTimeoutSeconds > 0
      ? gt(sessions.lastUsedAt, sql`now() - make_interval(secs => ${idleTimeoutSeconds})`)
      : undefined,
  );
  const [row] = await db
    .update(sessions)
    .set({ lastUsedAt: sql`now()` })
    .where(fresh)
    .returning();
  if (!row) {
    await db.delete(sessions).where(and(eq(sessions.tenantId, tenantId), eq(sessions.id, sessionId)));
  }
  return row;
}

export async function deleteSession(tenantId: string, sessionId: string): Promise<boolean> {
  if (!UUID_PATTERN.test(sessionId)) return false;
  const db = await executor();
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.id, sessionId)))
    .returning({ id: sessions.id });
  return rows.length === 1;
}

/** Deletes the user's sessions, but `keep` (when given); returns the ids of those ended. */
export async function deleteUserSessions(
  tenantId: string,
  userId: string,
  keep: string | undefined,
): Promise<string[]> {
  const db = await executor();
  const rows = await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.tenantId, tenantId),
        eq(sessions.userId, userId),
        ...(keep ? [ne(sessions.id, keep)] : []),
      ),
    )
    .returning({ id: sessions.id });
  return rows.map((row) => row.id);
}

export async function selectUserSessions(tenantId: string, userId: string): Promise<SessionRow[]> {
  const db = await executor();
  return db
    .select()
    .from(sessions)
    .where(
      and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)),
    )
    .orderBy(asc(sessions.createdAt));
}

export async function deleteExpiredSessions(limit: number): Promise<SessionRow[]> {
  const db = await executor();
  const expired = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(lt(sessions.expiresAt, sql`now()`))
    .limit(limit)
    .for("update", { skipLocked: true });
  return db.delete(sessions).where(inArray(sessions.id, expired)).returning();
}

/** Deletes one session of this user; undefined when the user has no live or expired session with this id. */
export async function deleteUserSession(
  tenantId: string,
  userId: string,
  sessionId: string,
): Promise<SessionRow | undefined> {
  if (!UUID_PATTERN.test(sessionId)) return undefined;
  const db = await executor();
  const [row] = await db
    .delete(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId), eq(sessions.id, sessionId)))
    .returning();
  return row;
}
