import "server-only";
import type { AuditLogEntry } from "@/lib/audit-logs";
import type { OperatorRole } from "@/lib/db/schema";
import { listOperators } from "@/lib/operators";
import { redactForRole } from "./event-data";

const OPERATOR_ACTOR = /^operator:([0-9a-f-]{36})$/i;

/**
 * Names the operator behind console actions (actor `operator:<id>`) on the audit screen, its JSON and its
 * CSV export (issue 29, bug 3): `actor_user_id` is the operator's id and `actor_email` their address
 * today, or, for an operator removed since, the `operator_email` the console recorded with the event.
 * The audit log owns no operators (lib/operators does), so the console fills these in as it presents.
 */
export async function nameOperators(entries: AuditLogEntry[]): Promise<AuditLogEntry[]> {
  if (!entries.some((entry) => OPERATOR_ACTOR.test(entry.actor ?? ""))) return entries;
  const emails = new Map((await listOperators()).map((operator) => [operator.id, operator.email]));
  return entries.map((entry) => {
    const id = OPERATOR_ACTOR.exec(entry.actor ?? "")?.[1];
    if (!id) return entry;
    const recorded = entry.details.operator_email;
    const email = emails.get(id) ?? (typeof recorded === "string" ? recorded : null);
    return { ...entry, actorUserId: id, actorEmail: email };
  });
}

/** The audit CSV export as an operator of `role` reads it: operators named, private metadata per role. */
export function auditExportView(role: OperatorRole) {
  return async (entries: AuditLogEntry[]): Promise<AuditLogEntry[]> =>
    (await nameOperators(entries)).map((entry) => ({
      ...entry,
      details: redactForRole(role, entry.details),
    }));
}
