import type { Metadata } from "next";
import Link from "next/link";
import { AdoptionChart, BarSeriesChart, type ChartRow } from "@/components/console/charts";
import { EmptyState, PageHeader, cx } from "@/components/console/ui";
import { type Bucket } from "@/lib/analytics";
import { lastDays, tenantAnalytics } from "@/lib/console/analytics";
import { requireTenant } from "@/lib/console/guard";

export const metadata: Metadata = { title: "Analytics" };

const BUCKETS: { value: Bucket; label: string }[] = [
  { value: "day", label: "Day" },
  { value: "week", label: "Week" },
  { value: "month", label: "Month" },
];
const PERIODS = [30, 90, 365] as const;

const METHODS = [
  { key: "passkey", label: "Passkey", color: "#4f46e5" },
  { key: "passcode", label: "Passcode", color: "#0891b2" },
  { key: "password", label: "Password", color: "#d97706" },
  { key: "third_party", label: "Third party", color: "#059669" },
] as const;

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** A bucket's label on the axis and in the table: its first day (UTC). */
function bucketLabel(start: string, bucket: Bucket): string {
  const date = new Date(`${start}T00:00:00Z`);
  if (bucket === "month")
    return date.toLocaleDateString("en-GB", { month: "short", year: "numeric", timeZone: "UTC" });
  const day = date.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
  return bucket === "week" ? `Week of ${day}` : day;
}

export default async function AnalyticsPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenantId: string }>;
  searchParams: Promise<{ bucket?: string; period?: string }>;
}) {
  const { tenantId } = await params;
  const { tenant } = await requireTenant(tenantId, "read");
  const query = await searchParams;
  const bucket = BUCKETS.find((b) => b.value === query.bucket)?.value ?? "day";
  const period = PERIODS.find((p) => String(p) === query.period) ?? 30;
  const { from, to } = lastDays(period);
  const data = await tenantAnalytics(tenant.id, { from, to, bucket });

  const base = `/console/tenants/${tenant.id}/analytics`;
  const href = (next: { bucket?: Bucket; period?: number }) =>
    `${base}?bucket=${next.bucket ?? bucket}&period=${next.period ?? period}`;
  const range = `from ${from} to ${to} (UTC)`;
  const { totals, adoption } = data;
  const logins = METHODS.reduce((sum, method) => sum + totals.logins[method.key], 0);
  const empty =
    totals.signups === 0 && logins === 0 && totals.failedLogins === 0 && adoption.activeUsers === 0;
  const row = (start: string, values: Record<string, number>): ChartRow => ({
    label: bucketLabel(start, bucket),
    values,
  });
  const busiest = (pick: (point: (typeof data.series)[number]) => number) => {
    const top = data.series.reduce(
      (best, point) => (pick(point) > pick(best) ? point : best),
      data.series[0]!,
    );
    return pick(top) > 0
      ? `; most ${bucket === "day" ? "on" : `in the ${bucket} of`} ${top.start} (${pick(top)})`
      : "";
  };
  const byMethod = METHODS.map((method) => `${method.label.toLowerCase()} ${totals.logins[method.key]}`).join(
    ", ",
  );

  return (
    <div>
      <PageHeader
        title="Analytics"
        description="Sign-ups, logins by method, failed logins and passkey adoption, counted as they happen."
      />
      <div className="mb-6 flex flex-wrap gap-x-6 gap-y-3">
        <Switch
          label="Group by"
          options={BUCKETS.map((b) => ({
            label: b.label,
            href: href({ bucket: b.value }),
            current: b.value === bucket,
          }))}
        />
        <Switch
          label="Period"
          options={PERIODS.map((p) => ({
            label: `Last ${p} days`,
            href: href({ period: p }),
            current: p === period,
          }))}
        />
      </div>
      {empty ? (
        <EmptyState
          title={`No sign-ups or logins in the last ${period} days`}
          description="The charts fill in as users sign up and log in: through the flow API, the hosted pages, the public API or the Passkey API. Try a longer period."
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <BarSeriesChart
            id="signups"
            title="Sign-ups"
            summary={`${plural(totals.signups, "sign-up")} ${range}${busiest((p) => p.signups)}.`}
            rows={data.series.map((p) => row(p.start, { signups: p.signups }))}
            series={[{ key: "signups", label: "Sign-ups", color: "#4f46e5" }]}
          />
          <BarSeriesChart
            id="logins"
            title="Logins by method"
            summary={`${plural(logins, "login")} ${range}: ${byMethod}.`}
            rows={data.series.map((p) => row(p.start, { ...p.logins }))}
            series={METHODS.map((method) => ({ ...method }))}
          />
          <BarSeriesChart
            id="failed"
            title="Failed logins"
            summary={`${plural(totals.failedLogins, "failed login")} ${range}${busiest((p) => p.failedLogins)}.`}
            rows={data.series.map((p) => row(p.start, { failed: p.failedLogins }))}
            series={[{ key: "failed", label: "Failed logins", color: "#dc2626" }]}
          />
          <AdoptionChart
            id="adoption"
            title="Passkey adoption"
            summary={
              adoption.share === null
                ? `No user logged in ${range}.`
                : `${Math.round(adoption.share * 100)}% of active users have a passkey: ${adoption.withPasskey} of ${plural(adoption.activeUsers, "user")} who logged in ${range}.`
            }
            activeUsers={adoption.activeUsers}
            withPasskey={adoption.withPasskey}
          />
        </div>
      )}
    </div>
  );
}

/** A segmented control made of links, so the choice lives in the URL. */
function Switch({
  label,
  options,
}: {
  label: string;
  options: { label: string; href: string; current: boolean }[];
}) {
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium text-slate-700 dark:text-slate-300" aria-hidden="true">
        {label}
      </span>
      <ul className="inline-flex overflow-hidden rounded-md ring-1 ring-slate-300 dark:ring-slate-600">
        {options.map((option) => (
          <li key={option.href}>
            <Link
              href={option.href}
              aria-current={option.current ? "page" : undefined}
              className={cx(
                "block px-3 py-1.5 font-medium focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600",
                option.current
                  ? "bg-indigo-600 text-white"
                  : "bg-white text-slate-700 hover:bg-slate-50 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800",
              )}
            >
              {option.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
