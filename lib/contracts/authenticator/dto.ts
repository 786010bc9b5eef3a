import type { z } from "zod";
import type { AppRequestView, AuthenticatorRequest, Device as DeviceView } from "@/lib/uaf-requests";
import { getConfig } from "@/lib/config";
import type { AppRequest, Device, RequestResource } from "./schemas";

/**
 * The follow-up calls of a request, absolute. `get` and `status` name the same call (Hanko's guides
 * use `status`; the spec says get).
 */
function links(id: string): z.input<typeof RequestResource>["links"] {
  const href = `${getConfig().baseUrl}/v1/uaf/requests/${id}`;
  return [
    { rel: "validate", method: "PUT", href },
    { rel: "get", method: "GET", href },
    { rel: "status", method: "GET", href },
    { rel: "cancel", method: "DELETE", href },
    { rel: "qrcode", method: "GET", href: `${href}/qrcode` },
  ];
}

export function requestDto(request: AuthenticatorRequest): z.input<typeof RequestResource> {
  const { createdAt, validUntil, ...rest } = request;
  return {
    id: rest.id,
    operation: rest.operation,
    username: rest.username,
    userId: rest.userId,
    status: rest.status,
    createdAt: createdAt.toISOString(),
    validUntil: validUntil.toISOString(),
    relyingParty: rest.relyingParty,
    links: links(rest.id),
    request: rest.request,
    deviceID: rest.deviceID,
    ...(rest.clientData ? { clientData: rest.clientData } : {}),
    ...(rest.transaction !== undefined ? { transaction: rest.transaction } : {}),
    ...(rest.device ? { device: rest.device } : {}),
    ...(rest.isSecondFactorOnly !== undefined ? { isSecondFactorOnly: rest.isSecondFactorOnly } : {}),
    ...(rest.error ? { error: rest.error } : {}),
  };
}

export function appRequestDto(request: AppRequestView): z.input<typeof AppRequest> {
  return { ...request, validUntil: request.validUntil.toISOString() };
}

export function deviceDto(device: DeviceView): z.input<typeof Device> {
  return { ...device, lastUsage: device.lastUsage.toISOString(), createdAt: device.createdAt.toISOString() };
}
