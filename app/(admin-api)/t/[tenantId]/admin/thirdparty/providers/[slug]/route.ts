import {
  deleteThirdPartyProvider,
  getThirdPartyProvider,
  providerWire,
  updateProviderInput,
  updateThirdPartyProvider,
} from "@/lib/contracts/admin";
import { json, noContent, route } from "@/lib/http";
import { deleteProvider, getProvider, updateProvider } from "@/lib/thirdparty";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/thirdparty/providers/{slug}
export const GET = route(getThirdPartyProvider, async ({ tenant, params }) =>
  json(providerWire(await getProvider(tenant.id, params.slug))),
);

// PATCH /t/{tenantId}/admin/thirdparty/providers/{slug}: change settings (secret only when given)
export const PATCH = route(updateThirdPartyProvider, async ({ tenant, params, body, audit }) =>
  json(providerWire(await updateProvider(tenant.id, params.slug, updateProviderInput(body), audit))),
);

// DELETE /t/{tenantId}/admin/thirdparty/providers/{slug}
export const DELETE = route(deleteThirdPartyProvider, async ({ tenant, params, audit }) => {
  await deleteProvider(tenant.id, params.slug, audit);
  return noContent();
});
