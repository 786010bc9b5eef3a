import type { Metadata } from "next";
import Link from "next/link";
import { ButtonLink, EmptyState, PageHeader, Table, Td, Time } from "@/components/console/ui";
import { requireTenant } from "@/lib/console/guard";
import { callbackOrigin, listWebhooks } from "@/lib/webhooks";
import { WebhookState } from "./state";

export const metadata: Metadata = { title: "Webhooks" };

/** The tenant's webhook endpoints: callback, events, state; create for operators who may write. */
export default async function WebhooksPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  const { operator, tenant } = await requireTenant(tenantId, "read");
  const canWrite = operator.role !== "viewer";
  const webhooks = await listWebhooks(tenant.id);
  const base = `/console/tenants/${tenant.id}/webhooks`;
  const create = canWrite ? <ButtonLink href={`${base}/new`}>Create webhook</ButtonLink> : undefined;
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Sesame POSTs signed events (Standard Webhooks) to these URLs; failed deliveries are retried, and an endpoint failing for 5 days is disabled."
        actions={webhooks.length > 0 ? create : undefined}
      />
      {webhooks.length === 0 ? (
        <EmptyState
          title="No webhooks yet"
          description={
            canWrite
              ? "Create one to receive user and session events (sign-ups, logins, deletions) at your own endpoint."
              : "An owner or admin can create one to send this tenant's user and session events to an endpoint."
          }
          action={create}
        />
      ) : (
        <Table caption="Webhooks" head={["Callback URL", "Events", "State", "Created"]}>
          {webhooks.map((webhook) => (
            <tr key={webhook.id}>
              <Td className="max-w-xs break-all">
                <Link
                  href={`${base}/${webhook.id}`}
                  className="font-medium text-indigo-700 underline hover:text-indigo-500 dark:text-indigo-300"
                >
                  {/* The path, query and userinfo may hold the receiver's secret: viewers see the origin. */}
                  {canWrite ? webhook.callback : `${callbackOrigin(webhook.callback)}/…`}
                </Link>
              </Td>
              <Td>
                <ul className="flex flex-wrap gap-1">
                  {webhook.events.map((subscription) => (
                    <li key={subscription.id}>
                      <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">
                        {subscription.event}
                      </code>
                    </li>
                  ))}
                </ul>
              </Td>
              <Td className="whitespace-nowrap">
                <WebhookState
                  enabled={webhook.enabled}
                  failures={webhook.failures}
                  failingSince={webhook.failingSince}
                />
              </Td>
              <Td className="whitespace-nowrap">
                <Time value={webhook.createdAt} />
              </Td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}
