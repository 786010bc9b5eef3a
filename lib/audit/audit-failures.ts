import { recordAuditEvent, type AuditContext } from "./record-audit-event";
import { AppError, type ErrorCode } from "@/lib/errors";
import { getLogger } from "@/lib/log";

/**
 * What a failure record says: the error's message and details, and its named code (lib/errors/codes.ts;
 * `INTERNAL` for anything that is not an AppError). No HTTP status: that is each surface's presenter's.
 */
export function failureDetails(error: unknown): { reason: string; code: ErrorCode } {
  if (!(error instanceof AppError)) return { reason: "internal error", code: "INTERNAL" };
  return { reason: [error.message, ...error.details].join(": "), code: error.code };
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
