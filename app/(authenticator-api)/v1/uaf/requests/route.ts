import { createRequest } from "@/lib/uaf-requests";
import { createUafRequest, requestDto } from "@/lib/contracts/authenticator";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /v1/uaf/requests: create a REG, AUTH or DEREG request
export const POST = route(createUafRequest, async ({ tenant, body, audit }) =>
  json(requestDto(await createRequest(tenant, body, audit))),
);
