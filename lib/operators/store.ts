import { and, asc, count, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import {
  operatorEnrolments,
  operators,
  operatorSessions,
  operatorTenants,
  type OperatorRole,
  type OperatorRow,
  type OperatorSessionRow,
} from "@/lib/db/schema";

/*
 * lib/operators owns operators, operator_tenants, operator_enrolments and operator_sessions: every
 * statement on them is here.
 */

// Operators and their tenant grants.

export async function selectOperatorById(operatorId: string): Promise<OperatorRow | undefined> {
  const db = await executor();
  const [row] = await db.select().from(operators).where(eq(operators.id, operatorId)).limit(1);
  return row;
}

export async function selectOperatorByEmail(email: string): Promise<OperatorRow | undefined> {
  const db = await executor();
  const [row] = await db.select().from(operators).where(eq(operators.email, email)).limit(1);
  return row;
}

export async function selectOperators(): Promise<OperatorRow[]> {
  const db = await executor();
  return db.select().from(operators).orderBy(asc(operators.createdAt), asc(operators.email));
}

export async function countOperatorRows(): Promise<number> {
  const db = await executor();
  const [row] = await db.select({ n: count() }).from(operators);
  return row?.n ?? 0;
}

/** Owners, counted under one lock, so two concurrent demotions or removals cannot leave none. */
export async function countOwnersLocked(): Promise<number> {
  const db = await executor();
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('sesame.console.owners'))`);
  const [row] = await db.select({ n: count() }).from(operators).where(eq(operators.role, "owner"));
  return row?.n ?? 0;
}

/** Serialises racing instances on one Postgres around setting up the first owner. */
export async function lockConsoleSetup(): Promise<void> {
  const db = await executor();
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('sesame.console.setup'))`);
}

/** Inserts an operator; undefined when one with this email exists. */
export async function insertOperator(values: {
  id?: string;
  email: string;
  role: OperatorRole;
}): Promise<OperatorRow | undefined> {
  const db = await executor();
  const [row] = await db.insert(operators).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateOperatorRole(operatorId: string, role: OperatorRole): Promise<void> {
  const db = await executor();
  await db.update(operators).set({ role }).where(eq(operators.id, operatorId));
}

export async function updateOperatorSignIn(operatorId: string): Promise<void> {
  const db = await executor();
  await db.update(operators).set({ lastSignInAt: new Date() }).where(eq(operators.id, operatorId));
}

export async function deleteOperatorRow(operatorId: string): Promise<void> {
  const db = await executor();
  await db.delete(operators).where(eq(operators.id, operatorId));
}

export async function selectGrants(
  operatorIds: string[],
): Promise<{ operatorId: string; tenantId: string }[]> {
  const db = await executor();
  return db.select().from(operatorTenants).where(inArray(operatorTenants.operatorId, operatorIds));
}

/** Replaces the operator's tenant grants with `tenantIds`. */
export async function replaceGrants(operatorId: string, tenantIds: string[]): Promise<void> {
  const db = await executor();
  await db.delete(operatorTenants).where(eq(operatorTenants.operatorId, operatorId));
  if (tenantIds.length > 0) {
    await db.insert(operatorTenants).values(tenantIds.map((tenantId) => ({ operatorId, tenantId })));
  }
}

// Enrolment (and setup) links.

/** Marks the unused links of the operator (null: the setup link) used. */
export async function retireEnrolments(operatorId: string | null): Promise<void> {
  const db = await executor();
  await db
    .update(operatorEnrolments)
    .set({ usedAt: new Date() })
    .where(
      and(
        operatorId === null
          ? isNull(operatorEnrolments.operatorId)
          : eq(operatorEnrolments.operatorId, operatorId),
        isNull(operatorEnrolments.usedAt),
      ),
    );
}

export async function insertEnrolment(values: {
  operatorId: string | null;
  tokenHash: string;
  expiresAt: Date;
}): Promise<void> {
  const db = await executor();
  await db.insert(operatorEnrolments).values(values);
}

/** The expiry of a live (unused, unexpired) setup link, if there is one. */
export async function selectLiveSetupLinkExpiry(): Promise<Date | undefined> {
  const db = await executor();
  const [live] = await db
    .select({ expiresAt: operatorEnrolments.expiresAt })
    .from(operatorEnrolments)
    .where(
      and(
        isNull(operatorEnrolments.operatorId),
        isNull(operatorEnrolments.usedAt),
        gt(operatorEnrolments.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return live?.expiresAt;
}

/** The unused, unexpired link with this token hash. */
export async function selectLiveEnrolment(
  tokenHash: string,
): Promise<typeof operatorEnrolments.$inferSelect | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(operatorEnrolments)
    .where(
      and(
        eq(operatorEnrolments.tokenHash, tokenHash),
        isNull(operatorEnrolments.usedAt),
        gt(operatorEnrolments.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row;
}

/** Uses up a live link atomically; true for the one caller that did. */
export async function updateEnrolmentUsed(enrolmentId: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .update(operatorEnrolments)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(operatorEnrolments.id, enrolmentId),
        isNull(operatorEnrolments.usedAt),
        gt(operatorEnrolments.expiresAt, new Date()),
      ),
    )
    .returning({ id: operatorEnrolments.id });
  return rows.length === 1;
}

/** Deletes links that expired before `before`; how many. */
export async function deleteEnrolmentsExpiredBefore(before: Date): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(operatorEnrolments)
    .where(lt(operatorEnrolments.expiresAt, before))
    .returning({ id: operatorEnrolments.id });
  return rows.length;
}

// Console sessions.

export async function insertOperatorSession(values: {
  operatorId: string;
  ip: string | null;
  userAgent: string | null;
}): Promise<string> {
  const db = await executor();
  const [row] = await db.insert(operatorSessions).values(values).returning({ id: operatorSessions.id });
  return row!.id;
}

export async function selectOperatorSession(sessionId: string): Promise<OperatorSessionRow | undefined> {
  const db = await executor();
  const [row] = await db.select().from(operatorSessions).where(eq(operatorSessions.id, sessionId)).limit(1);
  return row;
}

export async function updateOperatorSessionSeen(sessionId: string, at: Date): Promise<void> {
  const db = await executor();
  await db.update(operatorSessions).set({ lastSeenAt: at }).where(eq(operatorSessions.id, sessionId));
}

export async function revokeOperatorSessionRow(sessionId: string): Promise<void> {
  const db = await executor();
  await db
    .update(operatorSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(operatorSessions.id, sessionId), isNull(operatorSessions.revokedAt)));
}

/** Revokes every live session of the operator; how many. */
export async function revokeOperatorSessionRows(operatorId: string): Promise<number> {
  const db = await executor();
  const rows = await db
    .update(operatorSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.revokedAt)))
    .returning({ id: operatorSessions.id });
  return rows.length;
}

/** Deletes sessions created before `before`; how many. */
export async function deleteOperatorSessionsBefore(before: Date): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(operatorSessions)
    .where(lt(operatorSessions.createdAt, before))
    .returning({ id: operatorSessions.id });
  return rows.length;
}
