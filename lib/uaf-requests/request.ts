import { UafStatus } from "@/lib/ceremonies/uaf";
import type { UafRequestOperation, UafRequestStatus } from "@/lib/db/schema";
import type { Tenant } from "@/lib/tenants";
import type { RequestRecord } from "./store";

/** An Authenticator API request as the domain hands it to presenters (no links: those are wire format). */
export interface AuthenticatorRequest {
  id: string;
  operation: UafRequestOperation;
  username: string;
  /** The relying party's user id. */
  userId: string;
  status: UafRequestStatus;
  createdAt: Date;
  validUntil: Date;
  relyingParty: { id: string; name: string; appId: string; icon: string };
  /** The UAF request message, the JSON text of a one-element array. */
  request: string;
  /** The registration the request produced or used; "" when there is none (yet). */
  deviceID: string;
  clientData?: { remoteAddress?: string; userAgent?: string };
  transaction?: string;
  device?: { deviceId: string; keyName: string };
  isSecondFactorOnly?: boolean;
  error?: { code: number; reason: string };
}

/** The error a PENDING request past `validUntil` reads with (UAF 1408 Request Timeout). */
export const EXPIRED_ERROR = { code: UafStatus.REQUEST_TIMEOUT, reason: "request_expired" } as const;

/**
 * The request as it reads now: a PENDING request past `validUntil` is FAILED (evaluated lazily by
 * the database clock; a later validation stores it).
 */
export function toAuthenticatorRequest(tenant: Tenant, record: RequestRecord): AuthenticatorRequest {
  const expired = record.status === "PENDING" && record.expired;
  const view: AuthenticatorRequest = {
    id: record.id,
    operation: record.operation,
    username: record.username,
    userId: record.externalUserId,
    status: expired ? "FAILED" : record.status,
    createdAt: record.createdAt,
    validUntil: record.validUntil,
    relyingParty: { id: tenant.id, name: tenant.rpName, appId: record.appId, icon: "" },
    request: record.message,
    deviceID: record.deviceId ?? "",
  };
  if (record.clientData) view.clientData = record.clientData as AuthenticatorRequest["clientData"];
  if (record.transactionText !== null) view.transaction = record.transactionText;
  if (record.deviceId && record.deviceName !== null) {
    view.device = { deviceId: record.deviceId, keyName: record.deviceName };
  }
  if (record.isSecondFactorOnly !== null) view.isSecondFactorOnly = record.isSecondFactorOnly;
  if (expired) view.error = { ...EXPIRED_ERROR };
  else if (record.errorCode !== null) {
    view.error = { code: record.errorCode, reason: record.errorReason ?? "" };
  }
  return view;
}
