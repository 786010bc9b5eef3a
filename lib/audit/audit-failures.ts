import { recordAuditEvent, type AuditContext } from "./record-audit-event";
import { AppError } from "@/lib/errors";
import { PLATFORM_STATUS } from "@/lib/http/presenters/platform-status";
import { getLogger } from "@/lib/log";

/**
 * What a failure record says: the error's message and details, and the status a platform caller sees
 * as the failure's class (the Passkey API answers the same).
 */
export function failureDetails(error: unknown): { reason: string; status: number } {
  if (!(error instanceof AppError)) return { reason: "internal error", status: PLATFORM_STATUS.INTERNAL };
  return { reason: [error.message, ...error.details].join(": "), status: PLATFORM_STATUS[error.code] };
}

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
    try {
      await recordAuditEvent(tenantId, {
        ...context,
        type: `${type}.failed`,
        details: failureDetails(error),
      });
    } catch (auditError) {
      getLogger().error({ err: auditError, type }, "could not record a failed ceremony in the audit log");
    }
    throw error;
  }
}
