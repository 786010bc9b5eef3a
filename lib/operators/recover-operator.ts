import { transaction } from "@/lib/db";
import { issueEnrolment } from "./enrolments";
import { operatorsLog } from "./log";
import { requireOperatorByEmail } from "./operator";

/** A new enrolment link for an operator who lost their passkeys; existing passkeys stay until removed. */
export async function recoverOperator(email: string, actor: string) {
  return transaction(async () => {
    const operator = await requireOperatorByEmail(email);
    const enrolment = await issueEnrolment(operator.id);
    await operatorsLog("operator.recovery_link.created", actor, {
      operator_id: operator.id,
      email: operator.email,
    });
    return { operator, enrolment };
  });
}
