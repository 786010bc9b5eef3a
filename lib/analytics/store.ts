import { and, eq, gte, inArray, lte, sql, type Placeholder, type SQL } from "drizzle-orm";
import { executor } from "@/lib/db";
import { analyticsActiveUsers, analyticsDaily } from "@/lib/db/schema";

/** Rows per counter: concurrent increments of one counter spread over this many rows. */
export const SHARDS = 8;

/** The shard an increment goes to. */
export const randomShard = () => Math.floor(Math.random() * SHARDS);

/**
 * The counter bump as common table expressions of a larger statement (lib/audit writes them with the
 * audit row they count): adds 1 to the day's counter in a random shard and, for a login, marks the user
 * active on that day. `source` names an earlier CTE with one row per event to count and its
 * `created_at`; the day is that time's UTC date. No row in `source`, nothing counted.
 */
export function counterCtes(
  tenantId: string | Placeholder,
  metric: string | Placeholder,
  activeUser: string | Placeholder | undefined,
  source: SQL,
  shard: number | Placeholder = randomShard(),
): SQL {
  const day = sql`(${source}.created_at at time zone 'UTC')::date`;
  const counter = sql`analytics_counter as (
    insert into ${analyticsDaily} (tenant_id, day, metric, shard, value)
    select ${tenantId}::uuid, ${day}, ${metric}::text, ${shard}::smallint, 1 from ${source}
    on conflict (tenant_id, day, metric, shard) do update set value = ${analyticsDaily}.value + 1)`;
  if (activeUser === undefined) return counter;
  return sql`${counter}, analytics_active as (
    insert into ${analyticsActiveUsers} (tenant_id, day, user_id)
    select ${tenantId}::uuid, ${day}, ${activeUser}::text from ${source}
    on conflict do nothing)`;
}

/** One statement: the counter bump of {@link counterCtes} for an event at `day` (tests, tools). */
export async function bumpCounter(
  tenantId: string,
  day: string,
  metric: string,
  activeUser: string | undefined,
): Promise<void> {
  const db = await executor();
  const source = sql.raw("counted_event");
  await db.execute(sql`
    with counted_event as (select (${day}::date)::timestamp at time zone 'UTC' as created_at),
    ${counterCtes(tenantId, metric, activeUser, source)}
    select 1`);
}

/** The tenant's counters summed over shards, per day and metric, for `from`…`to` (inclusive). */
export async function selectDailyTotals(
  tenantId: string,
  from: string,
  to: string,
): Promise<{ day: string; metric: string; value: number }[]> {
  const db = await executor();
  const rows = await db
    .select({
      day: analyticsDaily.day,
      metric: analyticsDaily.metric,
      value: sql<number>`sum(${analyticsDaily.value})::bigint`,
    })
    .from(analyticsDaily)
    .where(
      and(eq(analyticsDaily.tenantId, tenantId), gte(analyticsDaily.day, from), lte(analyticsDaily.day, to)),
    )
    .groupBy(analyticsDaily.day, analyticsDaily.metric);
  return rows.map((row) => ({ ...row, value: Number(row.value) }));
}

/** The distinct users active in `from`…`to`. */
export async function selectActiveUsers(tenantId: string, from: string, to: string): Promise<string[]> {
  const db = await executor();
  const rows = await db
    .selectDistinct({ userId: analyticsActiveUsers.userId })
    .from(analyticsActiveUsers)
    .where(
      and(
        eq(analyticsActiveUsers.tenantId, tenantId),
        gte(analyticsActiveUsers.day, from),
        lte(analyticsActiveUsers.day, to),
      ),
    );
  return rows.map((row) => row.userId);
}

/** Per tenant and metric, the counters' sum since `from` (inclusive). */
export async function selectTotalsSince(
  tenantIds: string[],
  from: string,
): Promise<{ tenantId: string; metric: string; value: number }[]> {
  if (tenantIds.length === 0) return [];
  const db = await executor();
  const rows = await db
    .select({
      tenantId: analyticsDaily.tenantId,
      metric: analyticsDaily.metric,
      value: sql<number>`sum(${analyticsDaily.value})::bigint`,
    })
    .from(analyticsDaily)
    .where(and(inArray(analyticsDaily.tenantId, tenantIds), gte(analyticsDaily.day, from)))
    .groupBy(analyticsDaily.tenantId, analyticsDaily.metric);
  return rows.map((row) => ({ ...row, value: Number(row.value) }));
}
