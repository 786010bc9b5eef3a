import { and, eq, isNull, lt } from "drizzle-orm";
import type { AuditContext } from "@/lib/audit";
import { executor } from "@/lib/db";
import { operatorEnrolments, operatorSessions } from "@/lib/db/schema";
import { findOperator, operatorActor, operatorsLog, type Operator } from "./operators";

/** A console session ends 12 hours after sign-in, or after 30 minutes without a request. */
export const CONSOLE_SESSION_ABSOLUTE_SECONDS = 12 * 3600;
export const CONSOLE_SESSION_IDLE_SECONDS = 30 * 60;
/** Last-seen is written at most once a minute per session. */
const TOUCH_EVERY_MS = 60_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function createOperatorSession(operatorId: string, context: AuditContext): Promise<string> {
  const db = await executor();
  const [row] = await db
    .insert(operatorSessions)
    .values({ operatorId, ip: context.ip ?? null, userAgent: context.userAgent?.slice(0, 512) ?? null })
    .returning({ id: operatorSessions.id });
  return row!.id;
}

/**
 * The operator of a live console session, or undefined when the session is unknown, revoked, older
 * than 12 hours or idle for 30 minutes. Refreshes its last-seen time.
 */
export async function checkOperatorSession(
  sessionId: string,
  now = new Date(),
): Promise<{ operator: Operator; sessionId: string; signedInAt: Date } | undefined> {
  if (!UUID.test(sessionId)) return undefined;
  const db = await executor();
  const [session] = await db
    .select()
    .from(operatorSessions)
    .where(eq(operatorSessions.id, sessionId))
    .limit(1);
  if (!session || session.revokedAt) return undefined;
  const age = now.getTime() - session.createdAt.getTime();
  const idle = now.getTime() - session.lastSeenAt.getTime();
  if (age > CONSOLE_SESSION_ABSOLUTE_SECONDS * 1000 || idle > CONSOLE_SESSION_IDLE_SECONDS * 1000)
    return undefined;
  const operator = await findOperator(session.operatorId);
  if (!operator) return undefined;
  if (idle > TOUCH_EVERY_MS) {
    await db.update(operatorSessions).set({ lastSeenAt: now }).where(eq(operatorSessions.id, session.id));
  }
  return { operator, sessionId: session.id, signedInAt: session.createdAt };
}

export async function revokeOperatorSession(sessionId: string): Promise<void> {
  if (!UUID.test(sessionId)) return;
  const db = await executor();
  await db
    .update(operatorSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(operatorSessions.id, sessionId), isNull(operatorSessions.revokedAt)));
}

/** Sign-out everywhere: every console session of the operator ends. */
export async function revokeAllOperatorSessions(operator: Operator, context: AuditContext): Promise<number> {
  const db = await executor();
  const rows = await db
    .update(operatorSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(operatorSessions.operatorId, operator.id), isNull(operatorSessions.revokedAt)))
    .returning({ id: operatorSessions.id });
  await operatorsLog(
    "operator.signed_out_everywhere",
    operatorActor(operator),
    { operator_id: operator.id, sessions: rows.length },
    context,
  );
  return rows.length;
}

/** Housekeeping: console sessions past their 12 hours and enrolment links expired a day ago go. */
export async function sweepOperatorRecords(now = new Date()): Promise<number> {
  const db = await executor();
  const sessions = await db
    .delete(operatorSessions)
    .where(lt(operatorSessions.createdAt, new Date(now.getTime() - CONSOLE_SESSION_ABSOLUTE_SECONDS * 1000)))
    .returning({ id: operatorSessions.id });
  const links = await db
    .delete(operatorEnrolments)
    .where(lt(operatorEnrolments.expiresAt, new Date(now.getTime() - 86_400_000)))
    .returning({ id: operatorEnrolments.id });
  return sessions.length + links.length;
}
