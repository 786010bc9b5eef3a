import type { Metadata } from "next";
import { requireOperator } from "@/lib/console/guard";
import { getConfig } from "@/lib/config";
import { PageHeader } from "@/components/console/ui";
import { CreateTenantWizard } from "./create-tenant-wizard";

export const metadata: Metadata = { title: "Create tenant" };

/** Creating a tenant is an owner's action (admins and viewers get the not-found page). */
export default async function NewTenantPage() {
  await requireOperator("owner");
  const base = new URL(getConfig().baseUrl);
  return (
    <>
      <p className="mb-1 text-sm text-slate-600 dark:text-slate-400">
        <a href="/console/tenants" className="underline">
          Tenants
        </a>{" "}
        / New
      </p>
      <PageHeader
        title="Create tenant"
        description="A tenant is one application: its relying party, its users and how they sign in."
      />
      <CreateTenantWizard sesameOrigin={base.origin} sesameHost={base.hostname} />
    </>
  );
}
