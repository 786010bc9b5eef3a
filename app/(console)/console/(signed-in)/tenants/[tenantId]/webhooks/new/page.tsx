import type { Metadata } from "next";
import { Card, PageHeader } from "@/components/console/ui";
import { requireTenant } from "@/lib/console/guard";
import { eventPickerData } from "../events";
import { WebhookForm } from "../webhook-form";

export const metadata: Metadata = { title: "Create a webhook" };

/** Create a webhook (owners and admins): callback URL and events; the secret is shown once after. */
export default async function NewWebhookPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  const { tenant } = await requireTenant(tenantId, "write");
  const { tree, aliases } = eventPickerData();
  return (
    <>
      <PageHeader
        title="Create a webhook"
        description="Sesame signs every delivery with the webhook's secret, which you see once, right after creating it."
      />
      <Card>
        <WebhookForm
          tenantId={tenant.id}
          initial={{ callback: "", events: [] }}
          tree={tree}
          aliases={aliases}
        />
      </Card>
    </>
  );
}
