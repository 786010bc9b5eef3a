import { recordAuditEvent } from "@/lib/audit";
import { consoleTenant } from "./console-tenant";

/** An entry in the operators' log (the console tenant's audit log). */
export async function operatorsLog(
  type: string,
  actor: string,
  details: Record<string, unknown>,
  context = {},
) {
  const tenant = await consoleTenant();
  await recordAuditEvent(tenant.id, { ...context, type, actor, details });
}
