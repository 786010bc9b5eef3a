import type { Metadata } from "next";
import { Card, PageHeader, StartLinks } from "@/components/console/ui";
import { tenantHeadline } from "@/lib/console/analytics";
import { tenantChecklist, type ChecklistItem } from "@/lib/console/first-run";
import { requireTenant } from "@/lib/console/guard";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "Tenant overview" };

const number = new Intl.NumberFormat("en-GB");

function Figure({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className="rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd data-testid="figure" className="mt-1 text-2xl font-semibold text-slate-900 dark:text-white">
        {value}
      </dd>
      <dd className="mt-1 text-xs text-slate-600 dark:text-slate-400">{note}</dd>
    </div>
  );
}

/**
 * A tenant at a glance: its users, today's logins and the passkey share, and, while the tenant is new,
 * a checklist of what a first app needs (it goes once every item is done).
 */
export default async function TenantOverviewPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  const { tenant } = await requireTenant(tenantId, "read");
  const sesameOrigin = new URL(getConfig().baseUrl).origin;
  const headline = await tenantHeadline(tenant.id);
  const checklist = await tenantChecklist(tenant, headline.users, sesameOrigin);
  const base = `/console/tenants/${tenant.id}`;
  const hostedLogin = `/t/${tenant.id}/hosted/login`;
  const items: { key: ChecklistItem; label: string; href: string; action: string }[] = [
    {
      key: "origins",
      label: "Set your app's origins",
      href: `${base}#general`,
      action: "Settings → General",
    },
    { key: "api_key", label: "Create an API key", href: `${base}/keys`, action: "API & signing keys" },
    { key: "first_user", label: "A first user signs up", href: hostedLogin, action: "the hosted login page" },
    {
      key: "branding",
      label: "Brand the hosted pages",
      href: `${base}#branding`,
      action: "Settings → Branding",
    },
  ];
  const done = items.filter((item) => checklist[item.key]).length;
  const share = headline.adoption.share;
  return (
    <div className="space-y-6">
      <PageHeader title="Overview" description={`${tenant.name} at a glance.`} />
      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3" aria-label="Headline figures">
        <Figure label="Users" value={number.format(headline.users)} note="All users of this tenant." />
        <Figure
          label="Logins today"
          value={number.format(headline.loginsToday)}
          note="Successful logins since 00:00 UTC."
        />
        <Figure
          label="Passkey share"
          value={share === null ? "–" : `${Math.round(share * 100)} %`}
          note={
            share === null
              ? "No logins in the last 30 days."
              : `${number.format(headline.adoption.withPasskey)} of ${number.format(headline.adoption.activeUsers)} users active in the last 30 days have a passkey.`
          }
        />
      </dl>
      {done < items.length ? (
        <Card title={`Get started (${done} of ${items.length} done)`}>
          <ul className="space-y-2 text-sm" data-testid="checklist">
            {items.map((item) => (
              <li key={item.key} className="flex items-start gap-2" data-done={checklist[item.key]}>
                <span
                  aria-hidden="true"
                  className={
                    checklist[item.key]
                      ? "text-green-700 dark:text-green-400"
                      : "text-slate-500 dark:text-slate-400"
                  }
                >
                  {checklist[item.key] ? "✓" : "○"}
                </span>
                <span>
                  <span className="font-medium text-slate-900 dark:text-white">{item.label}</span>
                  <span className="sr-only">{checklist[item.key] ? " (done)" : " (to do)"}</span>
                  {checklist[item.key] ? null : (
                    <>
                      {" "}
                      <a href={item.href} className="text-indigo-700 underline dark:text-indigo-300">
                        on {item.action}
                      </a>
                    </>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card title="Links">
        <StartLinks hostedLogin={hostedLogin}>
          <li>
            <a href={`${base}/analytics`} className="text-indigo-700 underline dark:text-indigo-300">
              Analytics
            </a>
          </li>
        </StartLinks>
      </Card>
    </div>
  );
}
