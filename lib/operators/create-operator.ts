import { z } from "zod";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { issueEnrolment } from "./enrolments";
import { checkTenants } from "./grants";
import { operatorsLog } from "./log";
import { OperatorEmail, OperatorRoleSchema, type Operator } from "./operator";
import { insertOperator, replaceGrants } from "./store";

export const CreateOperatorInput = z.object({
  email: OperatorEmail,
  role: OperatorRoleSchema.default("admin"),
  /** Tenants an admin or viewer may see; ignored for owners, who see all. */
  tenantIds: z.array(z.uuid()).max(1000).default([]),
});
export type CreateOperatorInput = z.input<typeof CreateOperatorInput>;

/**
 * Creates an operator and returns a one-time enrolment link (30 minutes) for its first passkey.
 * `actor` is who did it: `cli` or an operator.
 */
export async function createOperator(
  input: CreateOperatorInput,
  actor: string,
): Promise<{ operator: Operator; enrolment: { url: string; expiresAt: Date } }> {
  const parsed = CreateOperatorInput.parse(input);
  const tenantIds = parsed.role === "owner" ? [] : [...new Set(parsed.tenantIds)];
  return transaction(async () => {
    await checkTenants(tenantIds);
    const row = await insertOperator({ email: parsed.email, role: parsed.role });
    if (!row) throw new AppError("OPERATOR_EXISTS", `an operator with the email ${parsed.email} exists`);
    await replaceGrants(row.id, tenantIds);
    const enrolment = await issueEnrolment(row.id);
    await operatorsLog("operator.created", actor, { operator_id: row.id, email: row.email, role: row.role });
    return { operator: { ...row, tenantIds }, enrolment };
  });
}
