import { createSamlProvider, listSamlProviders, samlProviderAdminWire } from "@/lib/contracts/admin";
import { json, route } from "@/lib/http";
import * as saml from "@/lib/saml";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/saml/providers: the tenant's SAML identity providers
export const GET = route(listSamlProviders, async ({ tenant }) =>
  json((await saml.listSamlProviders(tenant.id)).map(samlProviderAdminWire)),
);

// POST /t/{tenantId}/admin/saml/providers: a new identity provider (metadata read now)
export const POST = route(createSamlProvider, async ({ tenant, body, audit }) =>
  json(samlProviderAdminWire(await saml.createSamlProvider(tenant.id, body, audit)), 201),
);
