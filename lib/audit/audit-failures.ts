import { recordAuditEvent, type AuditContext } from "./record-audit-event";
import { AppError } from "@/lib/errors";
import { PLATFORM_STATUS } from "@/lib/http/presenters/platform-status";
import { getLogger } from "@/lib/log";

/**
 * Runs a ceremony step and, when it fails, appends `<type>.failed` to the audit log with the reason,
 * outside any transaction the step opened (those roll back; the failure record must not). Successes
 * are recorded by the step itself, in its own transaction.
 */
export async function auditFailures<T>(
  tenantId: string,
  type: string,
  context: AuditContext,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const reason =
      error instanceof AppError ? [error.message, ...error.details].join(": ") : "internal error";
    // The status a platform caller sees, as the failure's class (the Passkey API answers the same).
    const status = PLATFORM_STATUS[error instanceof AppError ? error.code : "INTERNAL"];
    try {
      await recordAuditEvent(tenantId, { ...context, type: `${type}.failed`, details: { reason, status } });
    } catch (auditError) {
      getLogger().error({ err: auditError, type }, "could not record a failed ceremony in the audit log");
    }
    throw error;
  }
}
