import {
  createProviderInput,
  createThirdPartyProvider,
  listThirdPartyProviders,
  providerWire,
} from "@/lib/contracts/admin";
import { json, route } from "@/lib/http";
import { createProvider, listProviders } from "@/lib/thirdparty";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/thirdparty/providers: the tenant's providers (secrets never shown)
export const GET = route(listThirdPartyProviders, async ({ tenant }) =>
  json((await listProviders(tenant.id)).map(providerWire)),
);

// POST /t/{tenantId}/admin/thirdparty/providers: configure a provider (its secret sealed)
export const POST = route(createThirdPartyProvider, async ({ tenant, body, audit }) =>
  json(providerWire(await createProvider(tenant.id, createProviderInput(body), audit)), 201),
);
