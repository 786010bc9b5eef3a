import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { writeWithAuditEvent, type AuditEvent } from "@/lib/audit";
import { executor } from "@/lib/db";
import { flows, type FlowName, type FlowRow } from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";

export interface FlowState extends FlowRow {
  /** Past `expires_at` by the database clock (shared by every instance). */
  expired: boolean;
}

/** Stores a new flow and, in the same statement, its audit record. */
export async function insertFlow(
  values: {
    id: string;
    tenantId: string;
    name: FlowName;
    state: string;
    stash: Record<string, unknown>;
    payload: Record<string, unknown> | null;
    csrfHash: string;
    ttlSeconds: number;
  },
  audit: AuditEvent,
): Promise<void> {
  const { ttlSeconds, ...rest } = values;
  const db = await executor();
  const insert = db
    .insert(flows)
    .values({ ...rest, expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})` })
    .returning({ id: flows.id });
  await writeWithAuditEvent(values.tenantId, audit, insert);
}

export async function findFlow(tenantId: string, id: string): Promise<FlowState | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  const db = await executor();
  const [found] = await db
    .select({ row: flows, expired: sql<boolean>`${flows.expiresAt} <= now()` })
    .from(flows)
    .where(and(eq(flows.tenantId, tenantId), eq(flows.id, id)))
    .limit(1);
  return found ? { ...found.row, expired: Boolean(found.expired) } : undefined;
}

/**
 * Reads and claims a step in one statement, for an action that must be claimed before it runs: swaps the
 * presented CSRF token's hash for the next one if the flow is this one (`name`), in a state offering the
 * action (`states`), at that token and not expired. Returns the flow as it was (its version before the
 * claim) and the claimed version; undefined when any of that does not hold (the caller then reads the flow
 * to say why). `updated_at` is left for the step's save, so `unclaimFlow` restores the row exactly.
 */
export async function claimFlow(
  tenantId: string,
  id: string,
  name: FlowName,
  states: readonly string[],
  csrfHash: string,
  nextCsrfHash: string,
): Promise<{ flow: FlowState; version: number } | undefined> {
  if (!UUID_PATTERN.test(id) || states.length === 0) return undefined;
  const db = await executor();
  const [claimed] = await db
    .update(flows)
    .set({ csrfHash: nextCsrfHash, version: sql`${flows.version} + 1` })
    .where(
      and(
        eq(flows.tenantId, tenantId),
        eq(flows.id, id),
        eq(flows.name, name),
        eq(flows.csrfHash, csrfHash),
        inArray(flows.state, [...states]),
        sql`${flows.expiresAt} > now()`,
      ),
    )
    .returning();
  if (!claimed) return undefined;
  const version = Number(claimed.version);
  return { flow: { ...claimed, version: version - 1, csrfHash, expired: false }, version };
}

/** Gives back a step `claimFlow` took (a check after the claim refused it): the token and version as they were. */
export async function unclaimFlow(tenantId: string, flow: FlowRow, version: number): Promise<void> {
  const db = await executor();
  await db
    .update(flows)
    .set({ csrfHash: flow.csrfHash, version: flow.version })
    .where(and(eq(flows.tenantId, tenantId), eq(flows.id, flow.id), eq(flows.version, version)));
}

/** The flow still at the version and CSRF token that were checked, and not expired. */
const claimable = (tenantId: string, flow: FlowRow) =>
  and(
    eq(flows.tenantId, tenantId),
    eq(flows.id, flow.id),
    eq(flows.version, flow.version),
    eq(flows.csrfHash, flow.csrfHash),
    sql`${flows.expiresAt} > now()`,
  );

/**
 * Takes the step: swaps the presented CSRF token's hash for the next one, if the flow is still at the
 * version that was checked and not expired. Exactly one of concurrent requests with the same token wins.
 */
export async function claimStep(
  tenantId: string,
  flow: FlowRow,
  nextCsrfHash: string,
): Promise<number | undefined> {
  const db = await executor();
  const [claimed] = await db
    .update(flows)
    .set({ csrfHash: nextCsrfHash, version: sql`${flows.version} + 1`, updatedAt: sql`now()` })
    .where(claimable(tenantId, flow))
    .returning({ version: flows.version });
  return claimed?.version;
}

type StepValues = Pick<FlowRow, "state" | "history" | "stash" | "payload">;

/**
 * Saves where a claimed step led (only the claimant's version matches); with `audit`, the step's record
 * is written by the same statement.
 */
export async function saveStep(
  tenantId: string,
  id: string,
  version: number,
  values: StepValues,
  audit?: AuditEvent,
): Promise<void> {
  const db = await executor();
  const update = db
    .update(flows)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(flows.tenantId, tenantId), eq(flows.id, id), eq(flows.version, version)));
  if (audit) await writeWithAuditEvent(tenantId, audit, update.returning({ id: flows.id }));
  else await update;
}

/**
 * Claims and saves a step in one statement (for actions that change nothing outside the flow): swaps
 * the CSRF token's hash and stores where the step led, if the flow is still at the version that was
 * checked and not expired, with the step's audit record. Exactly one of concurrent requests with the
 * same token wins, as with `claimStep`; undefined for the others.
 */
export async function claimAndSaveStep(
  tenantId: string,
  flow: FlowRow,
  nextCsrfHash: string,
  values: StepValues,
  audit: AuditEvent,
): Promise<number | undefined> {
  const db = await executor();
  const update = db
    .update(flows)
    .set({ ...values, csrfHash: nextCsrfHash, version: sql`${flows.version} + 1`, updatedAt: sql`now()` })
    .where(claimable(tenantId, flow))
    .returning({ version: flows.version });
  const [claimed] = await writeWithAuditEvent<{ version: number | string }>(tenantId, audit, update);
  return claimed ? Number(claimed.version) : undefined;
}

/** Deletes flows that expired more than a day ago (until then they answer `flow_expired_error`). */
export async function sweepExpiredFlows(): Promise<number> {
  const db = await executor();
  const deleted = await db
    .delete(flows)
    .where(lt(flows.expiresAt, sql`now() - interval '1 day'`))
    .returning({ id: flows.id });
  return deleted.length;
}
