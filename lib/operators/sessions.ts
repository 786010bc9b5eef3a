import type { AuditContext } from "@/lib/audit";
import { operatorsLog } from "./log";
import { findOperator, operatorActor, type Operator } from "./operator";
import {
  deleteEnrolmentsExpiredBefore,
  deleteOperatorSessionsBefore,
  insertOperatorSession,
  revokeOperatorSessionRow,
  revokeOperatorSessionRows,
  selectOperatorSession,
  updateOperatorSessionSeen,
} from "./store";

/** A console session ends 12 hours after sign-in, or after 30 minutes without a request. */
export const CONSOLE_SESSION_ABSOLUTE_SECONDS = 12 * 3600;
export const CONSOLE_SESSION_IDLE_SECONDS = 30 * 60;
/** Last-seen is written at most once a minute per session. */
const TOUCH_EVERY_MS = 60_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createOperatorSession(operatorId: string, context: AuditContext): Promise<string> {
  return insertOperatorSession({
    operatorId,
    ip: context.ip ?? null,
    userAgent: context.userAgent?.slice(0, 512) ?? null,
  });
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
  const session = await selectOperatorSession(sessionId);
  if (!session || session.revokedAt) return undefined;
  const age = now.getTime() - session.createdAt.getTime();
  const idle = now.getTime() - session.lastSeenAt.getTime();
  if (age > CONSOLE_SESSION_ABSOLUTE_SECONDS * 1000 || idle > CONSOLE_SESSION_IDLE_SECONDS * 1000)
    return undefined;
  const operator = await findOperator(session.operatorId);
  if (!operator) return undefined;
  if (idle > TOUCH_EVERY_MS) {
    await updateOperatorSessionSeen(session.id, now);
  }
  return { operator, sessionId: session.id, signedInAt: session.createdAt };
}

export async function revokeOperatorSession(sessionId: string): Promise<void> {
  if (!UUID.test(sessionId)) return;
  await revokeOperatorSessionRow(sessionId);
}

/** Sign-out everywhere: every console session of the operator ends. */
export async function revokeAllOperatorSessions(operator: Operator, context: AuditContext): Promise<number> {
  const sessions = await revokeOperatorSessionRows(operator.id);
  await operatorsLog(
    "operator.signed_out_everywhere",
    operatorActor(operator),
    { operator_id: operator.id, sessions },
    context,
  );
  return sessions;
}

/** Housekeeping: console sessions past their 12 hours and enrolment links expired a day ago go. */
export async function sweepOperatorRecords(now = new Date()): Promise<number> {
  const sessions = await deleteOperatorSessionsBefore(
    new Date(now.getTime() - CONSOLE_SESSION_ABSOLUTE_SECONDS * 1000),
  );
  const links = await deleteEnrolmentsExpiredBefore(new Date(now.getTime() - 86_400_000));
  return sessions + links;
}
