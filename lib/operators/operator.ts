import { z } from "zod";
import { OPERATOR_ROLES, type OperatorRole } from "@/lib/db/enums";
import type { OperatorRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import {
  countOperatorRows,
  selectGrants,
  selectOperatorByEmail,
  selectOperatorById,
  selectOperators,
} from "./store";

export const OperatorEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "must be an email address" }))
  .pipe(z.string().max(254));
export const OperatorRoleSchema = z.enum(OPERATOR_ROLES);

export interface Operator {
  id: string;
  email: string;
  role: OperatorRole;
  /** Granted tenants (admin, viewer); empty for owners. */
  tenantIds: string[];
  createdAt: Date;
  lastSignInAt: Date | null;
}

/** Who did something in the console, for the audit log: `operator:<id>`, with the email in details. */
export interface OperatorActor {
  id: string;
  email: string;
}

export const operatorActor = (operator: OperatorActor) => `operator:${operator.id}`;

/** Whether the operator may see this tenant: owners see all, others the tenants granted to them. */
export function canSeeTenant(operator: Pick<Operator, "role" | "tenantIds">, tenantId: string): boolean {
  return operator.role === "owner" || operator.tenantIds.includes(tenantId);
}

async function withGrants(rows: OperatorRow[]): Promise<Operator[]> {
  if (rows.length === 0) return [];
  const grants = await selectGrants(rows.map((row) => row.id));
  return rows.map((row) => ({
    ...row,
    tenantIds:
      row.role === "owner" ? [] : grants.filter((g) => g.operatorId === row.id).map((g) => g.tenantId),
  }));
}

const withGrantsOf = async (row: OperatorRow | undefined) => (row ? (await withGrants([row]))[0] : undefined);

export async function findOperator(operatorId: string): Promise<Operator | undefined> {
  if (!z.uuid().safeParse(operatorId).success) return undefined;
  return withGrantsOf(await selectOperatorById(operatorId));
}

export async function findOperatorByEmail(email: string): Promise<Operator | undefined> {
  const parsed = OperatorEmail.safeParse(email);
  if (!parsed.success) return undefined;
  return withGrantsOf(await selectOperatorByEmail(parsed.data));
}

export async function requireOperatorByEmail(email: string): Promise<Operator> {
  const operator = await findOperatorByEmail(email);
  if (!operator) throw new AppError("OPERATOR_NOT_FOUND", `no operator with the email ${email}`);
  return operator;
}

export async function listOperators(): Promise<Operator[]> {
  return withGrants(await selectOperators());
}

export function countOperators(): Promise<number> {
  return countOperatorRows();
}
