import type { ReactNode } from "react";
import { requireTenant } from "@/lib/console/guard";
import { NavLinks } from "@/components/console/nav-links";

/** A tenant's pages: its name and the tabs; each page checks access again (layouts are not a guard). */
export default async function TenantLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ tenantId: string }>;
}) {
  const { tenantId } = await params;
  const { tenant } = await requireTenant(tenantId);
  const base = `/console/tenants/${tenant.id}`;
  return (
    <div>
      <p className="mb-1 text-sm text-slate-600 dark:text-slate-400">
        <a href="/console/tenants" className="underline">
          Tenants
        </a>{" "}
        / <span className="font-medium text-slate-900 dark:text-white">{tenant.name}</span>{" "}
        <code className="text-xs">{tenant.id}</code>
      </p>
      <NavLinks
        label="Tenant"
        variant="tabs"
        links={[
          { href: `${base}/overview`, label: "Overview" },
          { href: base, label: "Settings" },
          { href: `${base}/keys`, label: "API & signing keys" },
          { href: `${base}/users`, label: "Users" },
          { href: `${base}/sign-in`, label: "Sign-in providers" },
          { href: `${base}/webhooks`, label: "Webhooks" },
          { href: `${base}/oauth-clients`, label: "OAuth clients" },
          { href: `${base}/audit`, label: "Audit log" },
          { href: `${base}/analytics`, label: "Analytics" },
        ]}
      />
      {children}
    </div>
  );
}
