"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { consoleAction } from "@/lib/console/guard";
import { AppError } from "@/lib/errors";
import {
  CreateOperatorInput,
  createOperator,
  findOperator,
  operatorActor,
  recoverOperator,
  removeOperator,
  UpdateOperatorInput,
  updateOperator,
} from "@/lib/operators";

/**
 * Owners only: invite, change, remove operators and issue new enrolment links. Each is written to the
 * operators' log by lib/operators with the owner as actor (`operator:<id>`). Enrolment links are in
 * the answer once and nowhere else.
 */

const OperatorId = z.uuid({ error: "unknown operator" });
const PAGE = "/console/operators";

export async function inviteOperator(input: unknown) {
  return consoleAction("owner", undefined, async ({ operator: owner }) => {
    const { operator, enrolment } = await createOperator(
      CreateOperatorInput.parse(input),
      operatorActor(owner),
    );
    revalidatePath(PAGE);
    return { email: operator.email, url: enrolment.url, expiresAt: enrolment.expiresAt.toISOString() };
  });
}

export async function changeOperator(operatorId: string, input: unknown) {
  return consoleAction("owner", undefined, async ({ operator: owner }) => {
    const operator = await updateOperator(
      OperatorId.parse(operatorId),
      UpdateOperatorInput.parse(input),
      operatorActor(owner),
    );
    revalidatePath(PAGE);
    return { email: operator.email, role: operator.role };
  });
}

export async function deleteOperator(operatorId: string) {
  return consoleAction("owner", undefined, async ({ operator: owner }) => {
    const operator = await removeOperator(OperatorId.parse(operatorId), operatorActor(owner));
    revalidatePath(PAGE);
    return { email: operator.email };
  });
}

/** A new one-time enrolment link (30 minutes); the operator's passkeys stay until removed. */
export async function newEnrolmentLink(operatorId: string) {
  return consoleAction("owner", undefined, async ({ operator: owner }) => {
    const operator = await findOperator(OperatorId.parse(operatorId));
    if (!operator) throw new AppError("OPERATOR_NOT_FOUND", "operator not found");
    const { enrolment } = await recoverOperator(operator.email, operatorActor(owner));
    return { email: operator.email, url: enrolment.url, expiresAt: enrolment.expiresAt.toISOString() };
  });
}
