import { cancelRequest, getRequest, validateRequest } from "@/lib/uaf-requests";
import {
  cancelUafRequest,
  getUafRequest,
  requestDto,
  validateUafRequest,
} from "@/lib/contracts/authenticator";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /v1/uaf/requests/{id}: status check
export const GET = route(getUafRequest, async ({ tenant, params }) =>
  json(requestDto(await getRequest(tenant, params.id))),
);

// PUT /v1/uaf/requests/{id}: validate the authenticator's response
export const PUT = route(validateUafRequest, async ({ tenant, params, body, audit }) =>
  json(requestDto(await validateRequest(tenant, params.id, body, { kind: "api-key" }, audit))),
);

// DELETE /v1/uaf/requests/{id}: cancel
export const DELETE = route(cancelUafRequest, async ({ tenant, params, audit }) =>
  json(requestDto(await cancelRequest(tenant, params.id, audit))),
);
