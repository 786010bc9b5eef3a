import { removeAllCredentials } from "@/lib/credentials";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { findUserByExternalId } from "@/lib/users";
import { consoleTenant } from "./console-tenant";
import { operatorsLog } from "./log";
import { findOperator, type Operator } from "./operator";
import { countOwnersLocked, deleteOperatorRow } from "./store";

export async function removeOperator(operatorId: string, actor: string): Promise<Operator> {
  return transaction(async () => {
    const operator = await findOperator(operatorId);
    if (!operator) throw new AppError("OPERATOR_NOT_FOUND", "operator not found");
    if (operator.role === "owner" && (await countOwnersLocked()) <= 1) {
      throw new AppError("LAST_OWNER", "the last owner cannot be removed");
    }
    await deleteOperatorRow(operator.id);
    // Its passkeys: the console tenant's credentials of the user named by the operator id.
    const tenant = await consoleTenant();
    const user = await findUserByExternalId(tenant.id, operator.id);
    if (user) await removeAllCredentials(tenant.id, user.id);
    await operatorsLog("operator.removed", actor, { operator_id: operator.id, email: operator.email });
    return operator;
  });
}
