import type { Metadata } from "next";
import { requireOperator } from "@/lib/console/guard";
import { PageHeader } from "@/components/console/ui";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  await requireOperator();
  return <PageHeader title="Overview" description="Tenants, sign-ups and logins of the last 30 days." />;
}
