import { z } from "zod";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { checkTenants } from "./grants";
import { operatorsLog } from "./log";
import { findOperator, OperatorRoleSchema, type Operator } from "./operator";
import { countOwnersLocked, replaceGrants, revokeOperatorSessionRows, updateOperatorRole } from "./store";

export const UpdateOperatorInput = z.object({
  role: OperatorRoleSchema,
  tenantIds: z.array(z.uuid()).max(1000).default([]),
});

/** Changes an operator's role and tenant grants; the last owner stays an owner. */
export async function updateOperator(
  operatorId: string,
  input: z.input<typeof UpdateOperatorInput>,
  actor: string,
): Promise<Operator> {
  const parsed = UpdateOperatorInput.parse(input);
  return transaction(async () => {
    const operator = await findOperator(operatorId);
    if (!operator) throw new AppError("OPERATOR_NOT_FOUND", "operator not found");
    if (operator.role === "owner" && parsed.role !== "owner" && (await countOwnersLocked()) <= 1) {
      throw new AppError("LAST_OWNER", "the last owner cannot lose the owner role");
    }
    const tenantIds = parsed.role === "owner" ? [] : [...new Set(parsed.tenantIds)];
    await checkTenants(tenantIds);
    await updateOperatorRole(operator.id, parsed.role);
    await replaceGrants(operator.id, tenantIds);
    // A changed role takes effect at once: the operator's console sessions end.
    await revokeOperatorSessionRows(operator.id);
    await operatorsLog("operator.updated", actor, {
      operator_id: operator.id,
      email: operator.email,
      role: parsed.role,
      tenant_ids: tenantIds,
    });
    return { ...operator, role: parsed.role, tenantIds };
  });
}
