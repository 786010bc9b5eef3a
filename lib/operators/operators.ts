import { and, asc, count, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAuditEvent } from "@/lib/audit";
import { randomToken, sha256Hex } from "@/lib/crypto";
import { executor, transaction } from "@/lib/db";
import {
  OPERATOR_ROLES,
  operatorEnrolments,
  operators,
  operatorSessions,
  operatorTenants,
  type OperatorRole,
  type OperatorRow,
} from "@/lib/db/schema";
import { AppError, NotFound } from "@/lib/errors";
import { findTenant } from "@/lib/tenants";
import { consoleTenant, consoleUrl } from "./console-tenant";

/** How long a setup or enrolment link works. */
export const ENROLMENT_TTL_MINUTES = 30;

export const OperatorEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "must be an email address" }))
  .pipe(z.string().max(254));
export const OperatorRoleSchema = z.enum(OPERATOR_ROLES);

export const CreateOperatorInput = z.object({
  email: OperatorEmail,
  role: OperatorRoleSchema.default("admin"),
  /** Tenants an admin or viewer may see; ignored for owners, who see all. */
  tenantIds: z.array(z.uuid()).max(1000).default([]),
});
export type CreateOperatorInput = z.input<typeof CreateOperatorInput>;

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

async function withGrants(rows: OperatorRow[]): Promise<Operator[]> {
  if (rows.length === 0) return [];
  const db = await executor();
  const grants = await db
    .select()
    .from(operatorTenants)
    .where(
      inArray(
        operatorTenants.operatorId,
        rows.map((row) => row.id),
      ),
    );
  return rows.map((row) => ({
    ...row,
    tenantIds:
      row.role === "owner" ? [] : grants.filter((g) => g.operatorId === row.id).map((g) => g.tenantId),
  }));
}

export async function findOperator(operatorId: string): Promise<Operator | undefined> {
  if (!z.uuid().safeParse(operatorId).success) return undefined;
  const db = await executor();
  const rows = await db.select().from(operators).where(eq(operators.id, operatorId)).limit(1);
  return (await withGrants(rows))[0];
}

export async function findOperatorByEmail(email: string): Promise<Operator | undefined> {
  const parsed = OperatorEmail.safeParse(email);
  if (!parsed.success) return undefined;
  const db = await executor();
  const rows = await db.select().from(operators).where(eq(operators.email, parsed.data)).limit(1);
  return (await withGrants(rows))[0];
}

export async function requireOperatorByEmail(email: string): Promise<Operator> {
  const operator = await findOperatorByEmail(email);
  if (!operator) throw new NotFound(`no operator with the email ${email}`);
  return operator;
}

export async function listOperators(): Promise<Operator[]> {
  const db = await executor();
  return withGrants(
    await db.select().from(operators).orderBy(asc(operators.createdAt), asc(operators.email)),
  );
}

export async function countOperators(): Promise<number> {
  const db = await executor();
  const [row] = await db.select({ n: count() }).from(operators);
  return row?.n ?? 0;
}

async function checkTenants(tenantIds: string[]): Promise<void> {
  for (const tenantId of tenantIds) {
    if (!(await findTenant(tenantId))) throw new NotFound(`tenant ${tenantId} not found`);
  }
}

async function issueEnrolment(operatorId: string | null): Promise<{ url: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + ENROLMENT_TTL_MINUTES * 60_000);
  const db = await executor();
  // A new link replaces the unused ones of the same operator (or the previous setup link).
  await db
    .update(operatorEnrolments)
    .set({ usedAt: new Date() })
    .where(
      and(
        operatorId === null
          ? isNull(operatorEnrolments.operatorId)
          : eq(operatorEnrolments.operatorId, operatorId),
        isNull(operatorEnrolments.usedAt),
      ),
    );
  await db.insert(operatorEnrolments).values({ operatorId, tokenHash: sha256Hex(token), expiresAt });
  // The token travels in the fragment: never sent to a server, never in a log or a Referer.
  return { url: consoleUrl(`/enroll#${token}`), expiresAt };
}

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
    const db = await executor();
    const [row] = await db
      .insert(operators)
      .values({ email: parsed.email, role: parsed.role })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError("CONFLICT", `an operator with the email ${parsed.email} exists`);
    if (tenantIds.length > 0) {
      await db
        .insert(operatorTenants)
        .values(tenantIds.map((tenantId) => ({ operatorId: row.id, tenantId })));
    }
    const enrolment = await issueEnrolment(row.id);
    await operatorsLog("operator.created", actor, { operator_id: row.id, email: row.email, role: row.role });
    return { operator: { ...row, tenantIds }, enrolment };
  });
}

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

export async function removeOperator(operatorId: string, actor: string): Promise<Operator> {
  return transaction(async () => {
    const operator = await findOperator(operatorId);
    if (!operator) throw new NotFound("operator not found");
    if (operator.role === "owner" && (await ownerCount()) <= 1) {
      throw new AppError("CONFLICT", "the last owner cannot be removed");
    }
    const db = await executor();
    await db.delete(operators).where(eq(operators.id, operator.id));
    await removeOperatorPasskeys(operator.id);
    await operatorsLog("operator.removed", actor, { operator_id: operator.id, email: operator.email });
    return operator;
  });
}

/** Owners are counted under one lock, so two concurrent demotions or removals cannot leave none. */
async function ownerCount(): Promise<number> {
  const db = await executor();
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('sesame.console.owners'))`);
  const [row] = await db.select({ n: count() }).from(operators).where(eq(operators.role, "owner"));
  return row?.n ?? 0;
}

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
    if (!operator) throw new NotFound("operator not found");
    if (operator.role === "owner" && parsed.role !== "owner" && (await ownerCount()) <= 1) {
      throw new AppError("CONFLICT", "the last owner cannot lose the owner role");
    }
    const tenantIds = parsed.role === "owner" ? [] : [...new Set(parsed.tenantIds)];
    await checkTenants(tenantIds);
    const db = await executor();
    await db.update(operators).set({ role: parsed.role }).where(eq(operators.id, operator.id));
    await db.delete(operatorTenants).where(eq(operatorTenants.operatorId, operator.id));
    if (tenantIds.length > 0) {
      await db
        .insert(operatorTenants)
        .values(tenantIds.map((tenantId) => ({ operatorId: operator.id, tenantId })));
    }
    // A changed role takes effect at once: the operator's console sessions end.
    await db
      .update(operatorSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(operatorSessions.operatorId, operator.id), isNull(operatorSessions.revokedAt)));
    await operatorsLog("operator.updated", actor, {
      operator_id: operator.id,
      email: operator.email,
      role: parsed.role,
      tenant_ids: tenantIds,
    });
    return { ...operator, role: parsed.role, tenantIds };
  });
}

/**
 * At start: when no operator exists yet, a one-time setup link for the first owner. The embedded
 * database has one process, so each start replaces the previous link. On Postgres another instance may
 * have printed a live link a moment ago: then that one stands (`url` undefined, its expiry given).
 */
export async function issueSetupLinkIfNeeded(options: {
  replace: boolean;
}): Promise<{ url: string | undefined; expiresAt: Date } | undefined> {
  return transaction(async () => {
    const db = await executor();
    // Serialise racing instances on one Postgres: one setup link at a time.
    await db.execute(sql`select pg_advisory_xact_lock(hashtext('sesame.console.setup'))`);
    if ((await countOperators()) > 0) return undefined;
    if (!options.replace) {
      const [live] = await db
        .select({ expiresAt: operatorEnrolments.expiresAt })
        .from(operatorEnrolments)
        .where(
          and(
            isNull(operatorEnrolments.operatorId),
            isNull(operatorEnrolments.usedAt),
            gt(operatorEnrolments.expiresAt, new Date()),
          ),
        )
        .limit(1);
      if (live) return { url: undefined, expiresAt: live.expiresAt };
    }
    return issueEnrolment(null);
  });
}

export interface Enrolment {
  id: string;
  /** Null: the first owner's setup link (the operator is made when the passkey is registered). */
  operator: Operator | null;
}

/** The unused, unexpired enrolment for a token, without using it up; undefined otherwise. */
export async function findEnrolment(token: string): Promise<Enrolment | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const db = await executor();
  const [row] = await db
    .select()
    .from(operatorEnrolments)
    .where(
      and(
        eq(operatorEnrolments.tokenHash, sha256Hex(token)),
        isNull(operatorEnrolments.usedAt),
        gt(operatorEnrolments.expiresAt, new Date()),
      ),
    )
    .limit(1);
  if (!row) return undefined;
  if (row.operatorId === null)
    return (await countOperators()) > 0 ? undefined : { id: row.id, operator: null };
  const operator = await findOperator(row.operatorId);
  return operator ? { id: row.id, operator } : undefined;
}

/** Uses up an enrolment atomically: only one caller gets it. */
export async function consumeEnrolment(enrolmentId: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .update(operatorEnrolments)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(operatorEnrolments.id, enrolmentId),
        isNull(operatorEnrolments.usedAt),
        gt(operatorEnrolments.expiresAt, new Date()),
      ),
    )
    .returning({ id: operatorEnrolments.id });
  return rows.length === 1;
}

/** The first owner, made when the setup link's passkey is registered. */
export async function insertFirstOwner(id: string, email: string): Promise<Operator> {
  const db = await executor();
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('sesame.console.setup'))`);
  if ((await countOperators()) > 0) throw new AppError("CONFLICT", "the console is already set up");
  const [row] = await db
    .insert(operators)
    .values({ id, email: OperatorEmail.parse(email), role: "owner" })
    .returning();
  return { ...row!, tenantIds: [] };
}

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

async function removeOperatorPasskeys(operatorId: string): Promise<void> {
  const { deleteOperatorPasskeys } = await import("./passkeys");
  await deleteOperatorPasskeys(operatorId);
}

/** Whether the operator may see this tenant: owners see all, others the tenants granted to them. */
export function canSeeTenant(operator: Pick<Operator, "role" | "tenantIds">, tenantId: string): boolean {
  return operator.role === "owner" || operator.tenantIds.includes(tenantId);
}
