import { usersWithPasskeys } from "@/lib/credentials";
import { countUsersByTenant } from "@/lib/users";
import {
  activeUsers,
  addDays,
  bucketStart,
  bucketStarts,
  dailyTotals,
  LOGIN_METHODS,
  totalsSince,
  utcDay,
  type Bucket,
  type LoginMethod,
} from "@/lib/analytics";

export interface AnalyticsPoint {
  /** The bucket's first day (`YYYY-MM-DD`, UTC; a week starts on Monday). */
  start: string;
  signups: number;
  logins: Record<LoginMethod, number>;
  failedLogins: number;
}

export interface TenantAnalytics {
  from: string;
  to: string;
  bucket: Bucket;
  series: AnalyticsPoint[];
  totals: Omit<AnalyticsPoint, "start">;
  /** Users who logged in during the period, and how many of them have a passkey; `share` 0…1, null without any. */
  adoption: { activeUsers: number; withPasskey: number; share: number | null };
}

const emptyLogins = (): Record<LoginMethod, number> => ({
  passkey: 0,
  passcode: 0,
  password: 0,
  third_party: 0,
});

function add(point: Omit<AnalyticsPoint, "start">, metric: string, value: number): void {
  if (metric === "signup") point.signups += value;
  else if (metric === "login.failed") point.failedLogins += value;
  else {
    const method = metric.slice("login.".length) as LoginMethod;
    if (metric.startsWith("login.") && LOGIN_METHODS.includes(method)) point.logins[method] += value;
  }
}

/**
 * The tenant's sign-ups, logins by method and failed logins per bucket over `from`…`to` (inclusive UTC
 * days; every bucket present, zeros included), read from the daily rollup; and passkey adoption: the
 * share of the period's active users who have a passkey now (lib/credentials answers which). Passkey
 * API users (`external:` ids) logged in with a passkey, so they have one.
 */
export async function tenantAnalytics(
  tenantId: string,
  options: { from: string; to: string; bucket: Bucket },
): Promise<TenantAnalytics> {
  const { from, to, bucket } = options;
  const series = bucketStarts(from, to, bucket).map((start): AnalyticsPoint => ({
    start,
    signups: 0,
    logins: emptyLogins(),
    failedLogins: 0,
  }));
  const byStart = new Map(series.map((point) => [point.start, point]));
  const totals = { signups: 0, logins: emptyLogins(), failedLogins: 0 };
  for (const row of await dailyTotals(tenantId, from, to)) {
    const point = byStart.get(bucketStart(row.day, bucket));
    if (point) add(point, row.metric, row.value);
    add(totals, row.metric, row.value);
  }
  const active = await activeUsers(tenantId, from, to);
  const external = active.filter((id) => id.startsWith("external:")).length;
  const holders = await usersWithPasskeys(
    tenantId,
    active.filter((id) => !id.startsWith("external:")),
  );
  const withPasskey = holders.size + external;
  return {
    from,
    to,
    bucket,
    series,
    totals,
    adoption: {
      activeUsers: active.length,
      withPasskey,
      share: active.length === 0 ? null : withPasskey / active.length,
    },
  };
}

export interface TenantOverview {
  tenantId: string;
  users: number;
  signups: number;
  logins: number;
}

/** The last `days` UTC days up to today: `{from, to}`. */
export function lastDays(days: number, now: Date = new Date()): { from: string; to: string } {
  const to = utcDay(now);
  return { from: addDays(to, -(days - 1)), to };
}

/** Per tenant: its users, and its sign-ups and successful logins of the last 30 days (from the rollup). */
export async function overviewCounts(tenantIds: string[], now: Date = new Date()): Promise<TenantOverview[]> {
  const { from } = lastDays(30, now);
  const [users, totals] = await Promise.all([countUsersByTenant(tenantIds), totalsSince(tenantIds, from)]);
  const counts = new Map(
    tenantIds.map((tenantId) => [
      tenantId,
      { tenantId, users: users.get(tenantId) ?? 0, signups: 0, logins: 0 },
    ]),
  );
  for (const row of totals) {
    const entry = counts.get(row.tenantId);
    if (!entry) continue;
    if (row.metric === "signup") entry.signups += row.value;
    else if (row.metric.startsWith("login.") && row.metric !== "login.failed") entry.logins += row.value;
  }
  return [...counts.values()];
}

export interface TenantHeadline {
  users: number;
  /** Successful logins of today (UTC), every method. */
  loginsToday: number;
  /** Passkey adoption of the last 30 days (as on the analytics page). */
  adoption: TenantAnalytics["adoption"];
}

/** The figures at the top of a tenant's overview: users, logins today, the passkey share. */
export async function tenantHeadline(tenantId: string, now: Date = new Date()): Promise<TenantHeadline> {
  const today = utcDay(now);
  const [users, month] = await Promise.all([
    countUsersByTenant([tenantId]),
    tenantAnalytics(tenantId, { ...lastDays(30, now), bucket: "day" }),
  ]);
  const todays = month.series.find((point) => point.start === today);
  const loginsToday = todays ? Object.values(todays.logins).reduce((sum, value) => sum + value, 0) : 0;
  return { users: users.get(tenantId) ?? 0, loginsToday, adoption: month.adoption };
}
