import QRCode from "qrcode";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { getConfig } from "@/lib/config";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getTenant, type Tenant } from "@/lib/tenants";
import { checkOobToken, newOobToken } from "./oob-token";
import { toAuthenticatorRequest, type AuthenticatorRequest } from "./request";
import {
  completeRequest,
  deleteOldRequests,
  findRequest,
  findRequestOfAnyTenant,
  replaceUsableOobTokenHash,
  type RequestRecord,
} from "./store";

/** The request as it reads now (status check); polling is not audited (docs/authenticator-api.md). */
export async function getRequest(tenant: Tenant, requestId: string): Promise<AuthenticatorRequest> {
  const record = await findRequest(tenant.id, requestId);
  if (!record) throw new AppError("UAF_REQUEST_NOT_FOUND", "request not found");
  return toAuthenticatorRequest(tenant, record);
}

/** PENDING → INVALIDATED; a request in any other state (or past `validUntil`) is returned unchanged. */
export async function cancelRequest(
  tenant: Tenant,
  requestId: string,
  context: AuditContext,
): Promise<AuthenticatorRequest> {
  return auditFailures(tenant.id, "authenticator.request.cancel", context, async () => {
    const { record, cancelled } = await transaction(async () => {
      const current = await findRequest(tenant.id, requestId, { lock: true });
      if (!current) throw new AppError("UAF_REQUEST_NOT_FOUND", "request not found");
      const cancelled =
        current.status === "PENDING" &&
        !current.expired &&
        (await completeRequest(tenant.id, requestId, { status: "INVALIDATED" }));
      return { record: cancelled ? (await findRequest(tenant.id, requestId))! : current, cancelled };
    });
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "authenticator.request.cancelled",
      details: { requestId, changed: cancelled, status: toAuthenticatorRequest(tenant, record).status },
    });
    return toAuthenticatorRequest(tenant, record);
  });
}

export interface QrCodeOptions {
  width?: number | undefined;
  height?: number | undefined;
  /** Six hex digits, no `#`. */
  fg?: string | undefined;
  bg?: string | undefined;
}

export const QR_DEFAULT_SIZE = 256;

/** What the QR code holds: the app-facing URL of the request with a fresh out-of-band token. */
export function oobUrl(requestId: string, token: string): string {
  return `${getConfig().baseUrl}/v1/uaf/app/requests/${requestId}?token=${token}`;
}

/**
 * Mints a new out-of-band token for the request (only its hash is stored, replacing the previous one)
 * and returns the app URL that carries it: what the QR code holds, or a link to open on the phone itself.
 */
export async function createAppLink(
  tenant: Tenant,
  requestId: string,
  context: AuditContext,
): Promise<{ href: string; validUntil: Date }> {
  return auditFailures(tenant.id, "authenticator.link.create", context, async () => {
    const { token, hash } = newOobToken();
    // The new hash replaces the previous one while the token may still be used, with the record, in one
    // statement; only when nothing changed is the request read, to say why.
    const validUntil = await replaceUsableOobTokenHash(tenant.id, requestId, hash, {
      ...context,
      type: "authenticator.link.created",
      details: { requestId },
    });
    if (!validUntil) {
      if (!(await findRequest(tenant.id, requestId)))
        throw new AppError("UAF_REQUEST_NOT_FOUND", "request not found");
      throw new AppError("UAF_REQUEST_NOT_PENDING", "the request is no longer pending");
    }
    return { href: oobUrl(requestId, token), validUntil };
  });
}

/**
 * A PNG QR code of a fresh app link (createAppLink), so the newest QR code is the one that works.
 * The code is square: the smaller of width and height, default 256 px.
 */
export async function createQrCode(
  tenant: Tenant,
  requestId: string,
  options: QrCodeOptions,
  context: AuditContext,
): Promise<Buffer> {
  const { href } = await createAppLink(tenant, requestId, context);
  const size = Math.min(
    options.width ?? options.height ?? QR_DEFAULT_SIZE,
    options.height ?? options.width ?? QR_DEFAULT_SIZE,
  );
  return QRCode.toBuffer(href, {
    type: "png",
    width: size,
    margin: 2,
    errorCorrectionLevel: "M",
    color: { dark: `#${options.fg ?? "000000"}ff`, light: `#${options.bg ?? "ffffff"}ff` },
  });
}

/** What the authenticator app sees of a request: enough to show it and answer, nothing about the user id. */
export interface AppRequestView {
  id: string;
  operation: AuthenticatorRequest["operation"];
  status: AuthenticatorRequest["status"];
  username: string;
  validUntil: Date;
  relyingParty: AuthenticatorRequest["relyingParty"];
  request: string;
  transaction?: string;
  error?: AuthenticatorRequest["error"];
}

export function toAppView(request: AuthenticatorRequest): AppRequestView {
  const { id, operation, status, username, validUntil, relyingParty, transaction, error } = request;
  return {
    id,
    operation,
    status,
    username,
    validUntil,
    relyingParty,
    request: request.request,
    ...(transaction !== undefined ? { transaction } : {}),
    ...(error ? { error } : {}),
  };
}

/**
 * Any tenant's request and its tenant, for the app-facing routes (which carry no API key and then check
 * the request's out-of-band token).
 */
async function requestOfAnyTenant(requestId: string): Promise<{ tenant: Tenant; record: RequestRecord }> {
  const record = await findRequestOfAnyTenant(requestId);
  if (!record) throw new AppError("UAF_REQUEST_NOT_FOUND", "request not found");
  return { tenant: await getTenant(record.tenantId), record };
}

/** The app fetches the request it scanned, with the out-of-band token. */
export async function fetchRequestForApp(
  requestId: string,
  token: string,
  context: AuditContext,
): Promise<{ tenant: Tenant; request: AppRequestView }> {
  const { tenant, record } = await requestOfAnyTenant(requestId);
  return auditFailures(tenant.id, "authenticator.request.fetch", context, async () => {
    checkOobToken(record, token);
    await recordAuditEvent(tenant.id, {
      ...context,
      actor: "oob_token",
      type: "authenticator.request.fetched",
      details: { requestId },
    });
    return { tenant, request: toAppView(toAuthenticatorRequest(tenant, record)) };
  });
}

/** Deletes requests of every tenant whose `validUntil` lies more than the retention period back; how many. */
export function sweepOldRequests(): Promise<number> {
  return deleteOldRequests();
}
