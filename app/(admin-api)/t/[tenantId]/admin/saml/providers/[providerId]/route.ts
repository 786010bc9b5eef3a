import {
  deleteSamlProvider,
  getSamlProvider,
  samlProviderAdminWire,
  updateSamlProvider,
} from "@/lib/contracts/admin";
import { json, noContent, route } from "@/lib/http";
import * as saml from "@/lib/saml";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/saml/providers/{providerId}
export const GET = route(getSamlProvider, async ({ tenant, params }) =>
  json(samlProviderAdminWire(await saml.getSamlProvider(tenant.id, params.providerId))),
);

// PATCH /t/{tenantId}/admin/saml/providers/{providerId}: change fields, new or refreshed metadata
export const PATCH = route(updateSamlProvider, async ({ tenant, params, body, audit }) =>
  json(samlProviderAdminWire(await saml.updateSamlProvider(tenant.id, params.providerId, body, audit))),
);

// DELETE /t/{tenantId}/admin/saml/providers/{providerId}
export const DELETE = route(deleteSamlProvider, async ({ tenant, params, audit }) => {
  await saml.deleteSamlProvider(tenant.id, params.providerId, audit);
  return noContent();
});
