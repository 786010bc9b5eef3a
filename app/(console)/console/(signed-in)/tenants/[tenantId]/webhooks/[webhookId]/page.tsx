import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import {
  Badge,
  Card,
  Details,
  EmptyState,
  PageHeader,
  Pagination,
  Table,
  Td,
  Time,
  cx,
} from "@/components/console/ui";
import { deliveryBodyView, PRIVATE_METADATA_HIDDEN, readsPrivateMetadata } from "@/lib/console/event-data";
import { requireTenant } from "@/lib/console/guard";
import type { OperatorRole } from "@/lib/db/schema";
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from "@/lib/db/enums";
import { callbackOrigin, getDelivery, getWebhook, listDeliveries, type DeliveryInfo } from "@/lib/webhooks";
import { eventPickerData } from "../events";
import { WebhookState } from "../state";
import { WebhookForm } from "../webhook-form";
import { RefreshButton, ReplayButton, WebhookControls } from "./controls";

export const metadata: Metadata = { title: "Webhook" };

const PER_PAGE = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type Search = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const STATUS_TONE = { pending: "amber", succeeded: "green", failed: "red" } as const;

function DeliveryStatus({ status }: { status: WebhookDeliveryStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{status}</Badge>;
}

/** A webhook: its settings, the controls, the deliveries (status filter and page in the URL), one delivery's attempts. */
export default async function WebhookPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenantId: string; webhookId: string }>;
  searchParams: Promise<Search>;
}) {
  const { tenantId, webhookId } = await params;
  const { operator, tenant } = await requireTenant(tenantId, "read");
  const canWrite = operator.role !== "viewer";
  const webhook = await getWebhook(tenant.id, webhookId).catch(() => notFound());
  const search = await searchParams;
  const rawStatus = one(search.status);
  const status = WEBHOOK_DELIVERY_STATUSES.find((value) => value === rawStatus);
  const rawPage = Number(one(search.page) ?? "1");
  const page = Number.isInteger(rawPage) && rawPage >= 1 && rawPage <= 100_000 ? rawPage : 1;
  const { deliveries, total } = await listDeliveries(tenant.id, webhook.id, {
    status,
    page,
    perPage: PER_PAGE,
  });
  const deliveryId = one(search.delivery);
  const selected =
    deliveryId && UUID.test(deliveryId)
      ? await getDelivery(tenant.id, webhook.id, deliveryId).catch(() => undefined)
      : undefined;

  const base = `/console/tenants/${tenant.id}/webhooks/${webhook.id}`;
  const href = (query: Record<string, string | undefined>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
    const text = search.toString();
    return text ? `${base}?${text}` : base;
  };
  const keep = { status, page: page > 1 ? String(page) : undefined };
  const events = webhook.events.map((subscription) => subscription.event);
  const { tree, aliases } = eventPickerData();

  return (
    <>
      <p className="mb-2 text-sm">
        <Link
          href={`/console/tenants/${tenant.id}/webhooks`}
          className="text-indigo-700 underline dark:text-indigo-300"
        >
          ← All webhooks
        </Link>
      </p>
      <PageHeader
        title="Webhook"
        description={
          <span className="break-all">
            {canWrite ? webhook.callback : `${callbackOrigin(webhook.callback)}/…`}
          </span>
        }
        actions={
          canWrite ? (
            <WebhookControls tenantId={tenant.id} webhookId={webhook.id} enabled={webhook.enabled} />
          ) : undefined
        }
      />
      <div className="space-y-6">
        <Card title="Deliveries">
          <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
            <nav aria-label="Delivery status">
              <ul className="flex flex-wrap gap-1">
                {[undefined, ...WEBHOOK_DELIVERY_STATUSES].map((value) => (
                  <li key={value ?? "all"}>
                    <Link
                      href={href({ status: value })}
                      aria-current={status === value ? "page" : undefined}
                      className={cx(
                        "block rounded-md px-3 py-1.5 text-sm font-medium",
                        status === value
                          ? "bg-indigo-600 text-white"
                          : "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800",
                      )}
                    >
                      {value ? value[0]!.toUpperCase() + value.slice(1) : "All"}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <RefreshButton />
          </div>
          {deliveries.length === 0 ? (
            <EmptyState
              title={status ? `No ${status} deliveries` : "No deliveries yet"}
              description={
                status
                  ? "Show all deliveries, or wait for events."
                  : "Deliveries appear when a subscribed event happens. Send a test event to try the endpoint now."
              }
            />
          ) : (
            <>
              <Table
                caption="Deliveries"
                head={["Event", "Status", "Attempts", "Last response", "Created", "Next attempt", "Actions"]}
              >
                {deliveries.map(({ delivery, event }) => (
                  <tr key={delivery.id} data-testid="delivery-row">
                    <Td>
                      <code className="text-xs">{event.event}</code>
                    </Td>
                    <Td>
                      <DeliveryStatus status={delivery.status} />
                    </Td>
                    <Td>{delivery.attemptCount}</Td>
                    <Td className="whitespace-nowrap">
                      {delivery.lastStatusCode ?? delivery.lastError ?? "—"}
                    </Td>
                    <Td className="whitespace-nowrap">
                      <Time value={delivery.createdAt} />
                    </Td>
                    <Td className="whitespace-nowrap">
                      {delivery.status === "pending" ? <Time value={delivery.nextAttemptAt} /> : "—"}
                    </Td>
                    <Td className="whitespace-nowrap">
                      <div className="flex gap-2">
                        <Link
                          href={`${href({ ...keep, delivery: delivery.id })}#delivery-detail`}
                          aria-label={`Attempts of the ${event.event} delivery of ${delivery.createdAt.toISOString()}`}
                          className="self-center text-sm font-medium text-indigo-700 underline dark:text-indigo-300"
                        >
                          Attempts
                        </Link>
                        {canWrite ? (
                          <ReplayButton
                            tenantId={tenant.id}
                            webhookId={webhook.id}
                            deliveryId={delivery.id}
                            label={`Replay the ${event.event} delivery of ${delivery.createdAt.toISOString()}`}
                          />
                        ) : null}
                      </div>
                    </Td>
                  </tr>
                ))}
              </Table>
              <Pagination basePath={base} query={{ status }} page={page} perPage={PER_PAGE} total={total} />
            </>
          )}
        </Card>

        {selected ? <DeliveryDetail delivery={selected} role={operator.role} closeHref={href(keep)} /> : null}

        <Card title="Settings">
          <Details
            items={[
              ["ID", <code key="id">{webhook.id}</code>],
              [
                "State",
                <WebhookState
                  key="state"
                  enabled={webhook.enabled}
                  failures={webhook.failures}
                  failingSince={webhook.failingSince}
                />,
              ],
              ["Failing since", <Time key="failing" value={webhook.failingSince} />],
              ["Events", events.join(", ")],
              ["Created", <Time key="created" value={webhook.createdAt} />],
              ["Updated", <Time key="updated" value={webhook.updatedAt} />],
            ]}
          />
        </Card>

        {canWrite ? (
          // Collapsed until wanted: the deliveries are what a person comes here for (issue 29, point 10).
          <details className="group rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200 sm:p-6 dark:bg-slate-900 dark:ring-slate-700">
            <summary className="cursor-pointer text-base font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-white">
              Edit
              <span className="ml-2 text-sm font-normal text-slate-600 dark:text-slate-400">
                callback URL and events
              </span>
            </summary>
            <div className="mt-4">
              <WebhookForm
                key={webhook.updatedAt.toISOString()}
                tenantId={tenant.id}
                webhookId={webhook.id}
                initial={{ callback: webhook.callback, events }}
                tree={tree}
                aliases={aliases}
              />
            </div>
          </details>
        ) : null}
      </div>
    </>
  );
}

const pre =
  "overflow-x-auto rounded bg-slate-100 p-3 font-mono text-xs whitespace-pre-wrap break-all text-slate-900 dark:bg-slate-800 dark:text-slate-100";

/**
 * One delivery: the request as Sesame sends it (headers are computed per attempt and not stored, so
 * they are shown as they are formed; the body's token is signed at send time; its data as the role may
 * read it) and every attempt.
 */
function DeliveryDetail({
  delivery,
  role,
  closeHref,
}: {
  delivery: DeliveryInfo;
  role: OperatorRole;
  closeHref: string;
}) {
  const { delivery: row, event, attempts } = delivery;
  const body = deliveryBodyView(role, event);
  return (
    <section
      id="delivery-detail"
      aria-labelledby="delivery-detail-title"
      className="rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200 sm:p-6 dark:bg-slate-900 dark:ring-slate-700"
    >
      <div className="mb-4 flex flex-wrap items-start justify-between gap-2">
        <h2 id="delivery-detail-title" className="text-base font-semibold text-slate-900 dark:text-white">
          Delivery <code className="text-sm break-all">{row.id}</code>
        </h2>
        <Link href={closeHref} className="text-sm text-indigo-700 underline dark:text-indigo-300">
          Close
        </Link>
      </div>
      <Details
        items={[
          ["Event", <code key="event">{event.event}</code>],
          ["Status", <DeliveryStatus key="status" status={row.status} />],
          ["Event id", <code key="eid">{event.id}</code>],
          ["Created", <Time key="created" value={row.createdAt} />],
        ]}
      />
      <h3 className="mt-6 mb-2 text-sm font-semibold text-slate-900 dark:text-white">Request</h3>
      <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
        <code>POST</code> to the callback URL. Headers are computed at each attempt (Standard Webhooks):
      </p>
      <pre className={pre} data-testid="request-headers">
        {[
          "content-type: application/json",
          "user-agent: Sesame-Webhooks/1",
          `webhook-id: ${row.id}`,
          "webhook-timestamp: <the attempt's time in Unix seconds (below)>",
          "webhook-signature: v1,<base64 HMAC-SHA256 with the secret over `${webhook-id}.${webhook-timestamp}.${body}`>",
          "  (two, space separated, for 24 hours after a rotation: new and old secret)",
        ].join("\n")}
      </pre>
      <p className="mt-3 mb-2 text-xs text-slate-600 dark:text-slate-400">
        Body:{readsPrivateMetadata(role) ? null : ` ${PRIVATE_METADATA_HIDDEN}`}
      </p>
      <pre className={pre} data-testid="request-body">
        {body}
      </pre>
      <h3 className="mt-6 mb-2 text-sm font-semibold text-slate-900 dark:text-white">Attempts</h3>
      {attempts.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No attempt yet: the delivery worker sends it within a few seconds. Refresh to see it.
        </p>
      ) : (
        <Table caption="Attempts" head={["#", "Time", "webhook-timestamp", "Status", "Duration", "Response"]}>
          {attempts.map((attempt, index) => (
            <tr key={attempt.id} data-testid="attempt-row">
              <Td>{index + 1}</Td>
              <Td className="whitespace-nowrap">
                <Time value={attempt.attemptedAt} />
              </Td>
              <Td>
                <code className="text-xs">≈ {Math.floor(attempt.attemptedAt.getTime() / 1000)}</code>
              </Td>
              <Td className="whitespace-nowrap">
                {attempt.error === null ? (
                  <Badge tone="green">{attempt.statusCode}</Badge>
                ) : (
                  <Badge tone="red">{attempt.error}</Badge>
                )}
              </Td>
              <Td className="whitespace-nowrap">{attempt.durationMs} ms</Td>
              <Td className="min-w-48">
                {attempt.response ? (
                  <pre className={cx(pre, "max-h-40 p-2")}>{attempt.response.slice(0, 500)}</pre>
                ) : (
                  <span className="text-slate-600 dark:text-slate-400">empty</span>
                )}
              </Td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
