import { headers } from "next/headers";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { hostedBranding } from "@/lib/hosted/branding";
import { preferredLang } from "@/lib/hosted/lang";
import { loadHostedTenant } from "@/lib/hosted/load-tenant";
import { HostedProvider } from "../_components/hosted-context";

export const dynamic = "force-dynamic";

/**
 * Loads the tenant before anything streams: an unknown or malformed id is a real 404 (the `loading.tsx`
 * boundary below would otherwise have started a 200 response), shown by ../not-found.tsx; a failing
 * database reaches ../error.tsx.
 */
export default async function HostedTenantLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ tenantId: string }>;
}) {
  const { tenantId } = await params;
  const tenant = await loadHostedTenant(tenantId);
  if (!tenant) notFound();
  const lang = preferredLang((await headers()).get("accept-language"));
  return (
    <HostedProvider value={{ branding: hostedBranding(tenant.name, tenant.branding), lang }}>
      {children}
    </HostedProvider>
  );
}
