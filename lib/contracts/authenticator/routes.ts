import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import {
  AppLink,
  AppRequest,
  CreateRequest,
  Device,
  DeviceIdParam,
  OobTokenQuery,
  QrCodeQuery,
  RenameBody,
  RequestIdParam,
  RequestResource,
  UserId,
  ValidateBody,
  authenticatorErrors,
} from "./schemas";

const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

const keyed = { surface: "authenticator", auth: { kind: "authenticator-key" } } as const;

export const createUafRequest = defineContract({
  ...keyed,
  method: "POST",
  path: "/v1/uaf/requests",
  operationId: "createUafRequest",
  summary: "Create a request",
  description:
    "Creates a REG, AUTH or DEREG request for a user. `request` is the FIDO UAF 1.1 request message for the " +
    "authenticator; `links` name the follow-up calls. DEREG removes the registrations at once and is OK straight away.",
  tags: ["Requests"],
  body: CreateRequest,
  responses: {
    "200": json("The request, PENDING", RequestResource),
    ...authenticatorErrors(400, 401, 404, 500),
  },
});

export const getUafRequest = defineContract({
  ...keyed,
  method: "GET",
  path: "/v1/uaf/requests/{id}",
  operationId: "getUafRequest",
  summary: "Get a request (status check)",
  description: "A PENDING request past `validUntil` reads as FAILED with error 1408 `request_expired`.",
  tags: ["Requests"],
  params: RequestIdParam,
  responses: { "200": json("The request", RequestResource), ...authenticatorErrors(400, 401, 404, 500) },
});

export const validateUafRequest = defineContract({
  ...keyed,
  method: "PUT",
  path: "/v1/uaf/requests/{id}",
  operationId: "validateUafRequest",
  summary: "Validate the authenticator's response",
  description:
    "Checks the UAF response (on-device UAF clients; out-of-band apps use the app endpoint). Success: OK. " +
    "A failed check: FAILED with `error {code, reason}` (UAF status codes), still 200. A request that is no " +
    "longer PENDING comes back unchanged.",
  tags: ["Requests"],
  params: RequestIdParam,
  body: ValidateBody,
  responses: {
    "200": json("The request, OK or FAILED", RequestResource),
    ...authenticatorErrors(400, 401, 404, 413, 415, 500),
  },
});

export const cancelUafRequest = defineContract({
  ...keyed,
  method: "DELETE",
  path: "/v1/uaf/requests/{id}",
  operationId: "cancelUafRequest",
  summary: "Cancel a request",
  description: "PENDING → INVALIDATED. A request in any other state comes back unchanged.",
  tags: ["Requests"],
  params: RequestIdParam,
  responses: { "200": json("The request", RequestResource), ...authenticatorErrors(400, 401, 404, 500) },
});

export const getUafRequestQrCode = defineContract({
  ...keyed,
  method: "GET",
  path: "/v1/uaf/requests/{id}/qrcode",
  operationId: "getQrCode",
  summary: "Get the QR code of a request",
  description:
    "A PNG QR code holding the app URL of the request with a fresh, single-use out-of-band token (never the API " +
    "key). Each call mints a new token; the previous QR code stops working.",
  tags: ["Requests"],
  params: RequestIdParam,
  query: QrCodeQuery,
  responses: {
    "200": {
      description: "The QR code",
      content: { "image/png": { schema: z.string().meta({ format: "binary" }) } },
    },
    ...authenticatorErrors(400, 401, 404, 409, 500),
  },
});

export const getUafRequestLink = defineContract({
  ...keyed,
  method: "GET",
  path: "/v1/uaf/requests/{id}/link",
  operationId: "getAppLink",
  summary: "Get the app link of a request",
  description:
    "The URL the QR code would hold, as text: for a button that opens the authenticator app on the same phone " +
    "(or to render the QR code yourself). Mints a fresh out-of-band token like the QR code does.",
  tags: ["Requests"],
  params: RequestIdParam,
  responses: { "200": json("The app link", AppLink), ...authenticatorErrors(400, 401, 404, 409, 500) },
});

export const fetchAppRequest = defineContract({
  surface: "authenticator",
  auth: { kind: "none" },
  method: "GET",
  path: "/v1/uaf/app/requests/{id}",
  operationId: "fetchAppRequest",
  summary: "App: fetch a scanned request",
  description:
    "The authenticator app opens the URL from the QR code: the out-of-band token authorises it, no API key. " +
    "Answers the UAF request message to hand to the authenticator.",
  tags: ["Authenticator app"],
  params: RequestIdParam,
  query: OobTokenQuery,
  responses: {
    "200": json("The request as the app sees it", AppRequest),
    ...authenticatorErrors(400, 401, 404, 500),
  },
});

export const answerAppRequest = defineContract({
  surface: "authenticator",
  auth: { kind: "none" },
  method: "PUT",
  path: "/v1/uaf/app/requests/{id}",
  operationId: "answerAppRequest",
  summary: "App: answer a scanned request",
  description:
    "The app posts the UAF response to the same URL. The token answers once: afterwards (and after `validUntil`) " +
    "it is refused with 401. For DEREG the call acknowledges that the app removed its keys.",
  tags: ["Authenticator app"],
  params: RequestIdParam,
  query: OobTokenQuery,
  body: ValidateBody,
  responses: { "200": json("The outcome", AppRequest), ...authenticatorErrors(400, 401, 404, 413, 415, 500) },
});

export const listUafDevices = defineContract({
  ...keyed,
  method: "GET",
  path: "/mgmt/v1/registrations/{userId}",
  operationId: "getUserDevices",
  summary: "List a user's devices",
  tags: ["Device management"],
  params: z.object({ userId: UserId }),
  responses: {
    "200": json("The user's registered authenticators", z.array(Device)),
    ...authenticatorErrors(400, 401, 404, 500),
  },
});

export const renameUafDevice = defineContract({
  ...keyed,
  method: "POST",
  path: "/mgmt/v1/registrations/rename/{deviceId}",
  operationId: "renameDevice",
  summary: "Rename a device",
  tags: ["Device management"],
  params: DeviceIdParam,
  body: RenameBody,
  responses: {
    "200": json("The new name", RenameBody),
    ...authenticatorErrors(400, 401, 404, 413, 415, 500),
  },
});

export const deleteUafDevice = defineContract({
  ...keyed,
  method: "DELETE",
  path: "/mgmt/v1/registrations/{userId}/{deviceId}",
  operationId: "deleteDevice",
  summary: "Delete a device",
  description: "Removes the registration at once; the app is not told (use a DEREG request for that).",
  tags: ["Device management"],
  params: z.object({ userId: UserId, deviceId: DeviceIdParam.shape.deviceId }),
  responses: { "204": { description: "Deleted" }, ...authenticatorErrors(400, 401, 404, 500) },
});
