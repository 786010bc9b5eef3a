import type { Metadata } from "next";
import { requireTenant } from "@/lib/console/guard";
import { getConfig } from "@/lib/config";
import { CopyButton } from "@/components/console/client";
import { Card, Details, PageHeader, Time } from "@/components/console/ui";
import { SECTIONS, toFieldValue, valueAt, type FieldValue } from "./_settings/sections";
import { SettingsForm } from "./_settings/settings-form";

export const metadata: Metadata = { title: "Tenant settings" };

/**
 * A tenant's settings, one form per section (each its own server action, validated with the schema of
 * `tenant update`). Viewers see the values read-only; the actions refuse them anyway.
 */
export default async function TenantSettingsPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  const { tenant, operator } = await requireTenant(tenantId, "read");
  const readOnly = operator.role === "viewer";
  const config = getConfig();
  const sender = `Mails go out from ${config.smtpFrom} (SMTP_FROM, the same for every tenant)${
    config.smtpUrl ? "" : "; no SMTP_URL is set, so they land in the development outbox"
  }.`;
  const hostedLogin = `/t/${tenant.id}/hosted/login`;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Settings"
        description={
          readOnly ? "Your role shows these settings read-only." : "Each section saves on its own."
        }
      />
      <Card title="Tenant">
        <Details
          items={[
            [
              "Tenant ID",
              <span key="id" className="inline-flex flex-wrap items-center gap-2">
                <code className="text-xs">{tenant.id}</code>
                <CopyButton value={tenant.id} label="Copy tenant ID" />
              </span>,
            ],
            ["Created", <Time key="created" value={tenant.createdAt} />],
            ["Last changed", <Time key="updated" value={tenant.updatedAt} />],
            ["Token signing algorithm", tenant.signingAlgorithm],
            [
              "Hosted login page",
              <a
                key="hosted"
                href={hostedLogin}
                target="_blank"
                rel="noreferrer"
                className="text-indigo-700 underline dark:text-indigo-300"
              >
                {hostedLogin}
              </a>,
            ],
          ]}
        />
      </Card>
      {readOnly ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-200">
          Read only: viewers see the settings but cannot change them.
        </p>
      ) : null}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[11rem_minmax(0,1fr)]">
        {/* A side navigation on wide screens (it stays in view), a row of links above the forms on narrow ones. */}
        <nav aria-label="Settings sections" className="lg:sticky lg:top-4 lg:self-start">
          <ul className="flex flex-wrap gap-x-3 gap-y-1 text-sm lg:flex-col lg:gap-y-0.5">
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="block rounded px-0 py-1 text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600 lg:px-2 lg:hover:bg-slate-100 dark:text-indigo-300 lg:dark:hover:bg-slate-800"
                >
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 space-y-6">
          {SECTIONS.map((section) => {
            const initial = Object.fromEntries(
              section.fields.map((field): [string, FieldValue] => [
                field.path,
                toFieldValue(field, valueAt(tenant, field.path)),
              ]),
            );
            return (
              <SettingsForm
                // Saved values (normalised by the schema) replace what the form held; other sections keep theirs.
                key={`${section.id}:${JSON.stringify(initial)}`}
                tenantId={tenant.id}
                tenantName={tenant.name}
                section={section}
                readOnly={readOnly}
                note={section.id === "email" ? sender : undefined}
                initial={initial}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
