import { createQrCode } from "@/lib/uaf-requests";
import { getUafRequestQrCode } from "@/lib/contracts/authenticator";
import { route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /v1/uaf/requests/{id}/qrcode: PNG with the app URL and a fresh out-of-band token
export const GET = route(getUafRequestQrCode, async ({ tenant, params, query, audit }) => {
  const png = await createQrCode(tenant, params.id, query, audit);
  return new Response(new Uint8Array(png), {
    headers: { "content-type": "image/png", "cache-control": "no-store" },
  });
});
