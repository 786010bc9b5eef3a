import { cancelRequest, getRequest, validateRequest } from "@/lib/uaf-requests";
import {
  cancelUafRequest,
  getUafRequest,
  requestDto,
  validateUafRequest,
} from "@/lib/contracts/authenticator";
import { json, route } from "@/lib/http";
import { getTenant } from "@/lib/tenants";

export const dynamic = "force-dynamic";

// GET /v1/uaf/requests/{id}: status check
export const GET = route(getUafRequest, async ({ key, params }) =>
  json(requestDto(await getRequest(await getTenant(key.tenantId), params.id))),
);

// PUT /v1/uaf/requests/{id}: validate the authenticator's response
export const PUT = route(validateUafRequest, async ({ key, params, body, audit }) =>
  json(
    requestDto(
      await validateRequest(await getTenant(key.tenantId), params.id, body, { kind: "api-key" }, audit),
    ),
  ),
);

// DELETE /v1/uaf/requests/{id}: cancel
export const DELETE = route(cancelUafRequest, async ({ key, params, audit }) =>
  json(requestDto(await cancelRequest(await getTenant(key.tenantId), params.id, audit))),
);
