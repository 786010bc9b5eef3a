import { createAppLink } from "@/lib/uaf-requests";
import { getUafRequestLink } from "@/lib/contracts/authenticator";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /v1/uaf/requests/{id}/link: the app URL (with a fresh out-of-band token) as text
export const GET = route(getUafRequestLink, async ({ tenant, params, audit }) => {
  const { href, validUntil } = await createAppLink(tenant, params.id, audit);
  return json({ href, validUntil: validUntil.toISOString() }, 200, { "cache-control": "no-store" });
});
