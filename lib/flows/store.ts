import { and, eq, lt, sql } from "drizzle-orm";
import { auditedStatement, type AuditEvent } from "@/lib/audit";
import { executor, type Executor } from "@/lib/db";
import { fixedStatement } from "@/lib/db/statement";
import { flows, type FlowName, type FlowRow } from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";

export interface FlowState extends FlowRow {
  /** Past `expires_at` by the database clock (shared by every instance). */
  expired: boolean;
}

/** A JSON value as the text a `::jsonb` placeholder takes (SQL NULL for null). */
const json = (value: unknown) => (value == null ? null : JSON.stringify(value));
const p = sql.placeholder;

const flowInsert = auditedStatement((db) =>
  db
    .insert(flows)
    .values({
      id: p("id"),
      tenantId: p("tenantId"),
      name: p("name"),
      state: p("state"),
      stash: sql`${p("stash")}::jsonb`,
      payload: sql`${p("payload")}::jsonb`,
      csrfHash: p("csrfHash"),
      expiresAt: sql`now() + make_interval(secs => ${p("ttlSeconds")}::double precision)`,
    })
    .returning({ id: flows.id }),
);

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
  await flowInsert(values.tenantId, audit, {
    ...values,
    stash: json(values.stash),
    payload: json(values.payload),
  });
}

const flowRead = fixedStatement((db) =>
  db
    .select({ row: flows, expired: sql<boolean>`${flows.expiresAt} <= now()` })
    .from(flows)
    .where(and(eq(flows.tenantId, sql.placeholder("tenantId")), eq(flows.id, sql.placeholder("id"))))
    .limit(1),
);

export async function findFlow(tenantId: string, id: string): Promise<FlowState | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  const [found] = await flowRead(await executor(), { tenantId, id });
  return found ? { ...found.row, expired: Boolean(found.expired) } : undefined;
}

const flowClaim = fixedStatement((db) =>
  db
    .update(flows)
    .set({ csrfHash: sql`${sql.placeholder("nextCsrfHash")}`, version: sql`${flows.version} + 1` })
    .where(
      and(
        eq(flows.tenantId, sql.placeholder("tenantId")),
        eq(flows.id, sql.placeholder("id")),
        eq(flows.name, sql.placeholder("name")),
        eq(flows.csrfHash, sql.placeholder("csrfHash")),
        sql`${flows.state} = any(${sql.placeholder("states")}::text[])`,
        sql`${flows.expiresAt} > now()`,
      ),
    )
    .returning(),
);

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
  const [claimed] = await flowClaim(await executor(), {
    tenantId,
    id,
    name,
    csrfHash,
    nextCsrfHash,
    states: [...states],
  });
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
const claimable = and(
  eq(flows.tenantId, p("tenantId")),
  eq(flows.id, p("id")),
  eq(flows.version, p("version")),
  eq(flows.csrfHash, p("csrfHash")),
  sql`${flows.expiresAt} > now()`,
);
const claimableValues = (tenantId: string, flow: FlowRow) => ({
  tenantId,
  id: flow.id,
  version: flow.version,
  csrfHash: flow.csrfHash,
});

const stepClaim = fixedStatement((db) =>
  db
    .update(flows)
    .set({ csrfHash: sql`${p("nextCsrfHash")}`, version: sql`${flows.version} + 1`, updatedAt: sql`now()` })
    .where(claimable)
    .returning({ version: flows.version }),
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
  const [claimed] = await stepClaim(await executor(), { ...claimableValues(tenantId, flow), nextCsrfHash });
  return claimed?.version;
}

type StepValues = Pick<FlowRow, "state" | "history" | "stash" | "payload">;

/** Where a step led, as placeholders (`stepValues` gives their values). */
const stepColumns = {
  state: sql`${p("state")}::text`,
  history: sql`${p("history")}::text[]`,
  stash: sql`${p("stash")}::jsonb`,
  payload: sql`${p("payload")}::jsonb`,
};
const stepValues = (values: StepValues) => ({
  state: values.state,
  history: values.history,
  stash: json(values.stash),
  payload: json(values.payload),
});

const stepSave = (db: Executor) =>
  db
    .update(flows)
    .set({ ...stepColumns, updatedAt: sql`now()` })
    .where(and(eq(flows.tenantId, p("tenantId")), eq(flows.id, p("id")), eq(flows.version, p("version"))));
const stepSaveAudited = auditedStatement((db) => stepSave(db).returning({ id: flows.id }));
const stepSaveSilent = fixedStatement(stepSave);

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
  const placeholders = { tenantId, id, version, ...stepValues(values) };
  if (audit) await stepSaveAudited(tenantId, audit, placeholders);
  else await stepSaveSilent(await executor(), placeholders);
}

const stepClaimAndSave = auditedStatement((db) =>
  db
    .update(flows)
    .set({
      ...stepColumns,
      csrfHash: sql`${p("nextCsrfHash")}`,
      version: sql`${flows.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(claimable)
    .returning({ version: flows.version }),
);

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
  const [claimed] = await stepClaimAndSave<{ version: number | string }>(tenantId, audit, {
    ...claimableValues(tenantId, flow),
    nextCsrfHash,
    ...stepValues(values),
  });
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
