import type { Metadata } from "next";
import Link from "next/link";
import { Badge, ButtonLink, Card, EmptyState, PageHeader, Table, Td } from "@/components/console/ui";
import { overviewCounts } from "@/lib/console/analytics";
import { requireOperator } from "@/lib/console/guard";
import { checkDatabase } from "@/lib/health";
import { canSeeTenant } from "@/lib/operators";
import { listTenants } from "@/lib/tenants";
import { webhookQueueStats } from "@/lib/webhooks";

export const metadata: Metadata = { title: "Overview" };

const number = new Intl.NumberFormat("en-GB");

/** How long ago, in the largest whole unit. */
function age(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** The database's answer to `select 1` (as /readyz asks it) and how long it took. */
async function databaseHealth(): Promise<{ ok: boolean; ms: number }> {
  const started = performance.now();
  const ok = await checkDatabase().then(
    () => true,
    () => false,
  );
  return { ok, ms: Math.round(performance.now() - started) };
}

export default async function OverviewPage() {
  const { operator } = await requireOperator("read");
  const tenants = (await listTenants()).filter((tenant) => canSeeTenant(operator, tenant.id));
  const [counts, database, queue] = await Promise.all([
    overviewCounts(tenants.map((tenant) => tenant.id)),
    databaseHealth(),
    webhookQueueStats().catch(() => undefined),
  ]);
  const byTenant = new Map(counts.map((entry) => [entry.tenantId, entry]));
  const backlog = queue !== undefined && queue.oldestPendingSeconds > 300;

  return (
    <div className="space-y-6">
      <PageHeader title="Overview" description="Tenants, sign-ups and logins of the last 30 days." />
      <section aria-labelledby="tenants-heading">
        <h2 id="tenants-heading" className="mb-3 text-base font-semibold text-slate-900 dark:text-white">
          Tenants
        </h2>
        {tenants.length === 0 ? (
          operator.role === "owner" ? (
            <EmptyState
              title="No tenants yet"
              description="Create a tenant for your application: its relying party, origins and login methods."
              action={<ButtonLink href="/console/tenants/new">Create tenant</ButtonLink>}
            />
          ) : (
            <EmptyState
              title="No tenants granted to you"
              description="An owner grants you tenants on the Operators page; ask one to add you."
            />
          )
        ) : (
          <Table
            caption="Tenants with their users, and sign-ups and logins of the last 30 days"
            head={[
              "Tenant",
              "Users",
              "Sign-ups (30 days)",
              "Logins (30 days)",
              <span key="links" className="sr-only">
                Links
              </span>,
            ]}
          >
            {tenants.map((tenant) => {
              const entry = byTenant.get(tenant.id);
              return (
                <tr key={tenant.id} data-testid={`overview-${tenant.id}`}>
                  <Td>
                    <Link
                      href={`/console/tenants/${tenant.id}/overview`}
                      className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
                    >
                      {tenant.name}
                    </Link>
                    <div className="text-xs text-slate-500 dark:text-slate-400">{tenant.rpId}</div>
                  </Td>
                  <Td className="tabular-nums">{number.format(entry?.users ?? 0)}</Td>
                  <Td className="tabular-nums">{number.format(entry?.signups ?? 0)}</Td>
                  <Td className="tabular-nums">{number.format(entry?.logins ?? 0)}</Td>
                  <Td>
                    <Link
                      href={`/console/tenants/${tenant.id}/analytics`}
                      className="text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
                    >
                      Analytics<span className="sr-only"> of {tenant.name}</span>
                    </Link>
                  </Td>
                </tr>
              );
            })}
          </Table>
        )}
      </section>
      <div className="grid gap-6 md:grid-cols-2">
        <Card title="Database">
          <p
            className="flex items-center gap-3 text-sm text-slate-700 dark:text-slate-300"
            data-testid="health-database"
          >
            {database.ok ? <Badge tone="green">Healthy</Badge> : <Badge tone="red">Unavailable</Badge>}
            {database.ok
              ? `answered in ${database.ms} ms`
              : "did not answer select 1 within 2 s (as /readyz checks)"}
          </p>
        </Card>
        <Card title="Webhook queue">
          {queue === undefined ? (
            <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="health-webhooks">
              <Badge tone="red">Unknown</Badge> the queue could not be read
            </p>
          ) : (
            <div
              className="space-y-2 text-sm text-slate-700 dark:text-slate-300"
              data-testid="health-webhooks"
            >
              <p className="flex items-center gap-3">
                {backlog ? <Badge tone="amber">Behind</Badge> : <Badge tone="green">Healthy</Badge>}
                {queue.depth === 0
                  ? "no deliveries pending"
                  : `${number.format(queue.depth)} ${queue.depth === 1 ? "delivery" : "deliveries"} pending`}
              </p>
              {queue.depth > 0 ? (
                <p>Oldest due delivery waiting for {age(queue.oldestPendingSeconds)}.</p>
              ) : null}
            </div>
          )}
        </Card>
      </div>
    </div>
  );
}
