"use server";

import QRCode from "qrcode";
import { getConfig } from "@/lib/config";
import { exampleTenant } from "@/lib/examples";

/*
 * The relying party's backend of the UAF demo: it holds the demo tenant's authenticator key and calls
 * the Authenticator API over HTTP, exactly as an application using Sesame would. The browser never
 * sees the key; it sees the request, its status, and the app link that the QR code carries.
 *
 * Every action answers a Result instead of throwing: Next.js hides the message of an error thrown in
 * a server action in production builds, and the demo wants to show what the API said.
 */

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export type UafOperation = "REG" | "AUTH" | "DEREG";

/** The Request resource of the Authenticator API (the fields the demo shows). */
export interface UafRequestView {
  id: string;
  operation: UafOperation;
  username: string;
  userId: string;
  status: "PENDING" | "OK" | "FAILED" | "INVALIDATED";
  createdAt: string;
  validUntil: string;
  relyingParty: { id: string; name: string; appId: string; icon: string };
  request: string;
  deviceID: string;
  transaction?: string;
  device?: { deviceId: string; keyName: string };
  error?: { code: number; reason: string };
}

/** What the QR code holds, and the QR code itself as a PNG data: URL. */
export interface AppLinkView {
  href: string;
  qrCode: string;
  validUntil: string;
}

export interface DemoDevice {
  deviceId: string;
  keyName: string;
  aaid: string;
  lastUsage: string;
  createdAt: string;
  deviceOs?: string;
  model?: string;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function authenticatorApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  const tenant = await exampleTenant();
  const res = await fetch(`${getConfig().baseUrl}${path}`, {
    method,
    headers: {
      authorization: `secret ${tenant.keys.authenticator}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  if (res.status === 204) return undefined as T;
  const json = (await res.json().catch(() => undefined)) as
    { message?: string; messsage?: string } | undefined;
  if (!res.ok) throw new ApiError(res.status, json?.message ?? json?.messsage ?? res.statusText);
  return json as T;
}

async function attempt<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

const requestPath = (id: string) => `/v1/uaf/requests/${encodeURIComponent(id)}`;

/**
 * GET …/link mints a fresh out-of-band token and answers the URL the QR code would hold; the demo draws
 * the QR code from it, so the picture and the link text carry the same token. (GET …/qrcode draws the
 * same picture, but every call mints a new token and retires the previous one, and a PNG cannot show
 * the link as text.)
 */
async function appLink(id: string): Promise<AppLinkView> {
  const { href, validUntil } = await authenticatorApi<{ href: string; validUntil: string }>(
    "GET",
    `${requestPath(id)}/link`,
  );
  const qrCode = await QRCode.toDataURL(href, { width: 256, margin: 2, errorCorrectionLevel: "M" });
  return { href, qrCode, validUntil };
}

/** POST /v1/uaf/requests, then the app link of the new request. */
export async function startRequest(
  operation: UafOperation,
  userId: string,
  transaction?: string,
): Promise<Result<{ request: UafRequestView; link?: AppLinkView; linkError?: string }>> {
  return attempt(async () => {
    const request = await authenticatorApi<UafRequestView>("POST", "/v1/uaf/requests", {
      operation,
      userId,
      ...(operation === "REG" ? { username: userId } : {}),
      ...(transaction !== undefined ? { transaction } : {}),
    });
    // A DEREG is OK at once (the server forgot the keys); its link stays readable so the app can forget them too.
    const link = await attempt(() => appLink(request.id));
    return link.ok ? { request, link: link.value } : { request, linkError: link.error };
  });
}

/** GET /v1/uaf/requests/{id}: the status check the page polls. */
export async function getRequestStatus(id: string): Promise<Result<UafRequestView>> {
  return attempt(() => authenticatorApi<UafRequestView>("GET", requestPath(id)));
}

/** DELETE /v1/uaf/requests/{id}: PENDING → INVALIDATED. */
export async function cancelRequest(id: string): Promise<Result<UafRequestView>> {
  return attempt(() => authenticatorApi<UafRequestView>("DELETE", requestPath(id)));
}

/** GET /mgmt/v1/registrations/{userId}; a user the tenant does not know yet has no devices. */
export async function listDevices(userId: string): Promise<Result<DemoDevice[]>> {
  return attempt(async () => {
    try {
      return await authenticatorApi<DemoDevice[]>(
        "GET",
        `/mgmt/v1/registrations/${encodeURIComponent(userId)}`,
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return [];
      throw error;
    }
  });
}

/** POST /mgmt/v1/registrations/rename/{deviceId}. */
export async function renameDevice(deviceId: string, newName: string): Promise<Result<{ newName: string }>> {
  return attempt(() =>
    authenticatorApi<{ newName: string }>(
      "POST",
      `/mgmt/v1/registrations/rename/${encodeURIComponent(deviceId)}`,
      { newName },
    ),
  );
}

/** DELETE /mgmt/v1/registrations/{userId}/{deviceId}: the server forgets the key; the app is not told. */
export async function deleteDevice(userId: string, deviceId: string): Promise<Result<void>> {
  return attempt(() =>
    authenticatorApi<void>(
      "DELETE",
      `/mgmt/v1/registrations/${encodeURIComponent(userId)}/${encodeURIComponent(deviceId)}`,
    ),
  );
}
