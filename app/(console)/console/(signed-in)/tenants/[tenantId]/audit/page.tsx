import type { Metadata } from "next";
import {
  Badge,
  ButtonLink,
  EmptyState,
  FormField,
  PageHeader,
  Pagination,
  Table,
  Td,
  Time,
  buttonClass,
  fieldProps,
} from "@/components/console/ui";
import { AUDIT_LOG_PAGE, queryAuditLogs, type AuditLogListing } from "@/lib/audit-logs";
import { auditEntryView, PRIVATE_METADATA_HIDDEN, readsPrivateMetadata } from "@/lib/console/event-data";
import { nameOperators } from "@/lib/console/audit-actors";
import { requireTenant } from "@/lib/console/guard";
import { EntryDrawer } from "./entry-drawer";
import { auditFilterOf, filterErrorsOf, filterQuery } from "./filters";

export const metadata: Metadata = { title: "Audit log" };

type Search = Record<string, string | string[] | undefined>;

/** The tenant's audit log: filters in the URL (a GET form), a page of entries, the JSON of one, CSV export. */
export default async function AuditLogPage({
  params,
  searchParams,
}: {
  params: Promise<{ tenantId: string }>;
  searchParams: Promise<Search>;
}) {
  const { tenantId } = await params;
  const { tenant, operator } = await requireTenant(tenantId, "read");
  const search = await searchParams;
  const { values, filter, errors: parseErrors } = auditFilterOf(search);
  const rawPage = Number(Array.isArray(search.page) ? search.page[0] : (search.page ?? "1"));
  const page = Number.isInteger(rawPage) && rawPage >= 1 && rawPage <= AUDIT_LOG_PAGE.maxPage ? rawPage : 1;
  const perPage = 25;
  let listing: AuditLogListing | undefined;
  let errors = parseErrors;
  if (filter) {
    try {
      listing = await queryAuditLogs(tenant.id, filter, { page, perPage });
      listing = { ...listing, entries: await nameOperators(listing.entries) };
    } catch (error) {
      const refused = filterErrorsOf(error);
      if (!refused) throw error;
      errors = refused;
    }
  }
  const base = `/console/tenants/${tenant.id}/audit`;
  const query = filterQuery(values);
  const exportQuery = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  const filtered = Object.values(query).some(Boolean);

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every sign-in, change and console action of this tenant, newest first."
        actions={
          listing ? (
            <a
              href={`${base}/export${exportQuery ? `?${exportQuery}` : ""}`}
              download
              className={buttonClass("secondary")}
            >
              Export CSV
            </a>
          ) : undefined
        }
      />
      <form
        method="get"
        action={base}
        role="search"
        aria-label="Filter the audit log"
        className="mb-6 grid grid-cols-1 gap-4 rounded-lg bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-3 dark:bg-slate-900 dark:ring-slate-700"
      >
        <FormField
          id="type"
          label="Type"
          hint="An exact type or a prefix: user.* (several: comma separated)"
          error={errors.type}
        >
          <input {...fieldProps("type", errors.type)} defaultValue={values.type} placeholder="user.*" />
        </FormField>
        <FormField
          id="actor"
          label="Actor"
          hint="A user id or email, or operator:<id>, api_key:<id>, cli, system"
          error={errors.actor}
        >
          <input {...fieldProps("actor", errors.actor)} defaultValue={values.actor} />
        </FormField>
        <FormField id="ip" label="IP address" hint="Exact client IP" error={errors.ip}>
          <input {...fieldProps("ip", errors.ip)} defaultValue={values.ip} inputMode="decimal" />
        </FormField>
        <FormField id="from" label="From (UTC)" hint="From the start of this day" error={errors.from}>
          <input {...fieldProps("from", errors.from)} type="date" defaultValue={values.from} />
        </FormField>
        <FormField id="to" label="To (UTC)" hint="To the end of this day" error={errors.to}>
          <input {...fieldProps("to", errors.to)} type="date" defaultValue={values.to} />
        </FormField>
        <FormField
          id="q"
          label="Search"
          hint="Any text: type, actor, IP, user agent, details"
          error={errors.q}
        >
          <input {...fieldProps("q", errors.q)} type="search" defaultValue={values.q} />
        </FormField>
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-3">
          <button type="submit" className={buttonClass("primary")}>
            Apply filters
          </button>
          {filtered ? (
            <ButtonLink variant="ghost" href={base}>
              Clear
            </ButtonLink>
          ) : null}
        </div>
      </form>
      {!listing ? (
        <EmptyState title="Check the filters" description="Correct the highlighted filters to see entries." />
      ) : listing.entries.length === 0 ? (
        <EmptyState
          title={filtered ? "No entries match these filters" : "No entries yet"}
          description={
            filtered
              ? "Widen the filters: a type prefix (user.*), another date range, or clear them."
              : "Entries appear as users sign up and sign in, and as operators and API keys change things."
          }
        />
      ) : (
        <>
          <Table caption="Audit log entries" head={["Time", "Type", "Actor", "IP", "Details"]}>
            {listing.entries.map((entry) => (
              <tr key={entry.id} data-testid="audit-row">
                <Td className="whitespace-nowrap">
                  <Time value={entry.createdAt} />
                </Td>
                <Td>
                  <code className="text-xs">{entry.type}</code>
                  {entry.error ? (
                    <>
                      {" "}
                      <Badge tone="red">{entry.error}</Badge>
                    </>
                  ) : null}
                </Td>
                <Td className="max-w-56 break-all">
                  {entry.actorEmail ?? entry.actor ?? "—"}
                  {entry.actor?.startsWith("operator:") ? (
                    <span className="text-xs text-slate-500 dark:text-slate-400"> (operator)</span>
                  ) : null}
                </Td>
                <Td className="whitespace-nowrap">{entry.ip ?? "—"}</Td>
                <Td>
                  <EntryDrawer
                    label={`View details of ${entry.type} at ${entry.createdAt.toISOString()}`}
                    title={entry.type}
                    json={auditEntryView(operator.role, entry)}
                    note={readsPrivateMetadata(operator.role) ? undefined : PRIVATE_METADATA_HIDDEN}
                  />
                </Td>
              </tr>
            ))}
          </Table>
          <Pagination basePath={base} query={query} page={page} perPage={perPage} total={listing.total} />
        </>
      )}
    </>
  );
}
