import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import {
  UafError,
  UafStatus,
  parseUafResponse,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type ExpectedRequest,
  type Policy,
  type Transaction,
} from "@/lib/ceremonies/uaf";
import { sha256Hex } from "@/lib/crypto";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { checkOobToken } from "./oob-token";
import { trustedFacetIds } from "./policy";
import { EXPIRED_ERROR, toAuthenticatorRequest, type AuthenticatorRequest } from "./request";
import { serverDataKey } from "./server-data";
import {
  advanceSignCounter,
  completeRequest,
  findRequest,
  insertRegistration,
  selectRegistrations,
  setOobTokenHash,
  type RequestOutcome,
  type RequestRecord,
} from "./store";

export interface DeviceKeyInfo {
  pushToken?: string | undefined;
  secret?: string | undefined;
  keyName?: string | undefined;
  deviceOs?: string | undefined;
  osVersion?: string | undefined;
  manufacturer?: string | undefined;
  model?: string | undefined;
}

export interface ValidateInput {
  uafResponse: string;
  deviceKeyInfo?: DeviceKeyInfo | undefined;
}

/** How the caller proved it may answer: the relying party's API key, or the request's out-of-band token. */
export type Answerer = { kind: "api-key" } | { kind: "oob-token"; token: string };

/**
 * Checks the authenticator's UAF response to a PENDING request and stores the outcome: OK (REG stores
 * the registration, AUTH advances the sign counter) or FAILED with a UAF status code. The request row
 * is locked while the outcome is stored, so of concurrent or replayed answers exactly one counts; a
 * request that is no longer PENDING comes back unchanged.
 *
 * An AUTH answer's signature is checked before the lock is taken (from an unlocked read of the request
 * and its registrations, which do not change while it is pending), so no answer waits on another's
 * signature check; under the lock the request must still be pending and unexpired, and the sign counter
 * advances only from the value the check saw (compare-and-set), as before.
 */
export async function validateRequest(
  tenant: Tenant,
  requestId: string,
  input: ValidateInput,
  answerer: Answerer,
  context: AuditContext,
): Promise<AuthenticatorRequest> {
  return auditFailures(tenant.id, "authenticator.request.validate", context, async () => {
    const checked = await checkAuthenticationBeforeLock(tenant, requestId, input, answerer);
    const { record, outcome } = await transaction(async () => {
      const record = await findRequest(tenant.id, requestId, { lock: true });
      if (!record) throw new AppError("UAF_REQUEST_NOT_FOUND", "request not found");
      if (answerer.kind === "oob-token") checkOobToken(record, answerer.token);
      if (record.status !== "PENDING") {
        // The app acknowledged a DEREG (already OK): its token has done its job.
        if (answerer.kind === "oob-token") await setOobTokenHash(tenant.id, requestId, null);
        return { record, outcome: undefined };
      }
      const outcome = record.expired
        ? ({ status: "FAILED", errorCode: EXPIRED_ERROR.code, errorReason: EXPIRED_ERROR.reason } as const)
        : checked && record.operation === "AUTH"
          ? await applyAuthentication(tenant, checked)
          : await verify(tenant, record, input);
      await completeRequest(tenant.id, requestId, outcome);
      return { record: (await findRequest(tenant.id, requestId))!, outcome };
    });
    if (outcome) await auditOutcome(tenant, record, outcome, context);
    return toAuthenticatorRequest(tenant, record);
  });
}

/** The REG check (and an AUTH check the pre-check did not make), under the request's lock. */
async function verify(tenant: Tenant, record: RequestRecord, input: ValidateInput): Promise<RequestOutcome> {
  try {
    if (record.operation === "REG") {
      return await register(
        tenant,
        record,
        parseUafResponse(input.uafResponse),
        expectedOf(tenant, record),
        input,
      );
    }
    const verified = await checkAssertion(tenant, record, input);
    const row = verified.registration.row;
    return await applyAuthentication(tenant, {
      ok: true,
      registration: { id: row.id, signCounter: row.signCounter },
      signCounter: verified.signCounter,
    });
  } catch (error) {
    if (error instanceof UafError) {
      return { status: "FAILED", errorCode: error.code, errorReason: error.reason };
    }
    throw error;
  }
}

async function register(
  tenant: Tenant,
  record: RequestRecord,
  parsed: ReturnType<typeof parseUafResponse>,
  expected: ExpectedRequest,
  input: ValidateInput,
): Promise<RequestOutcome> {
  const verified = verifyRegistrationResponse(parsed, {
    ...expected,
    attestation: {
      trustedRoots: tenant.uaf.trustedRoots,
      allowSurrogate: tenant.uaf.allowSurrogate && !record.requireFullAttestation,
    },
  });
  const info = input.deviceKeyInfo ?? {};
  const stored = await insertRegistration({
    tenantId: tenant.id,
    userId: record.userId,
    aaid: verified.aaid,
    keyId: verified.keyId.toString("base64url"),
    publicKey: verified.publicKey.toString("base64url"),
    publicKeyAlgAndEncoding: verified.publicKeyAlgAndEncoding,
    signatureAlgAndEncoding: verified.signatureAlgAndEncoding,
    signCounter: verified.signCounter,
    regCounter: verified.regCounter,
    authenticatorVersion: verified.authenticatorVersion,
    attestationType: verified.attestationType,
    attestationCertificates: verified.attestationCertificates.map((der) => der.toString("base64")),
    facetId: verified.facetId,
    upv: `${verified.upv.major}.${verified.upv.minor}`,
    appId: record.appId,
    name: defaultKeyName(info, verified.aaid),
    deviceOs: info.deviceOs ?? null,
    osVersion: info.osVersion ?? null,
    manufacturer: info.manufacturer ?? null,
    model: info.model ?? null,
    pushToken: info.pushToken ?? null,
    secretHash: info.secret ? sha256Hex(info.secret) : null,
    isSecondFactorOnly: record.isSecondFactorOnly ?? false,
  });
  if (!stored) {
    throw new UafError(
      UafStatus.UNACCEPTABLE_AUTHENTICATOR,
      "key_already_registered",
      "This authenticator key is already registered",
    );
  }
  return { status: "OK", deviceId: stored.id };
}

function defaultKeyName(info: DeviceKeyInfo, aaid: string): string {
  const named = info.keyName?.trim();
  if (named) return named;
  const device = [info.manufacturer, info.model].filter(Boolean).join(" ").trim();
  return (device || `UAF authenticator ${aaid}`).slice(0, 64);
}

/** What an AUTH answer's check found: the registration that signed and its new counter, or the failure. */
type CheckedAssertion =
  | { ok: true; registration: { id: string; signCounter: number }; signCounter: number }
  | { ok: false; outcome: RequestOutcome };

/**
 * The AUTH answer's parsing and signature check, without the row lock and without writing: undefined
 * when the request is not a pending, unexpired AUTH request (the locked path then decides as before).
 */
async function checkAuthenticationBeforeLock(
  tenant: Tenant,
  requestId: string,
  input: ValidateInput,
  answerer: Answerer,
): Promise<CheckedAssertion | undefined> {
  const record = await findRequest(tenant.id, requestId);
  if (!record || record.operation !== "AUTH" || record.status !== "PENDING" || record.expired)
    return undefined;
  // A wrong token is refused before any signature work (and again under the lock).
  if (answerer.kind === "oob-token") checkOobToken(record, answerer.token);
  try {
    const verified = await checkAssertion(tenant, record, input);
    const row = verified.registration.row;
    return {
      ok: true,
      registration: { id: row.id, signCounter: row.signCounter },
      signCounter: verified.signCounter,
    };
  } catch (error) {
    if (error instanceof UafError) {
      return { ok: false, outcome: { status: "FAILED", errorCode: error.code, errorReason: error.reason } };
    }
    throw error;
  }
}

/** Under the request's lock: a checked answer advances the counter from the value its check saw. */
async function applyAuthentication(tenant: Tenant, checked: CheckedAssertion): Promise<RequestOutcome> {
  if (!checked.ok) return checked.outcome;
  const advanced = await advanceSignCounter(
    tenant.id,
    checked.registration.id,
    checked.registration.signCounter,
    checked.signCounter,
  );
  if (!advanced) {
    const error = counterChanged();
    return { status: "FAILED", errorCode: error.code, errorReason: error.reason };
  }
  return { status: "OK", deviceId: checked.registration.id };
}

function counterChanged(): UafError {
  return new UafError(
    UafStatus.REVOKED_AUTHENTICATOR,
    "counter_regression",
    "The sign counter changed while this response was checked",
  );
}

function expectedOf(tenant: Tenant, record: RequestRecord): ExpectedRequest {
  return {
    appID: record.appId,
    challenge: record.challenge!,
    serverData: record.serverData!,
    serverDataKey: serverDataKey(tenant.id),
    requestId: record.id,
    trustedFacetIds: trustedFacetIds(tenant),
    policy: record.policy as Policy,
    now: new Date(record.now),
  };
}

/** Parses and checks an AUTH answer against the user's registrations (reads only). */
async function checkAssertion(tenant: Tenant, record: RequestRecord, input: ValidateInput) {
  const parsed = parseUafResponse(input.uafResponse);
  const registrations = await selectRegistrations(tenant.id, record.userId, record.deviceIds ?? undefined);
  const candidates = registrations.map((row) => ({
    row,
    aaid: row.aaid,
    keyId: Buffer.from(row.keyId, "base64url"),
    publicKey: Buffer.from(row.publicKey, "base64url"),
    publicKeyAlgAndEncoding: row.publicKeyAlgAndEncoding,
    signatureAlgAndEncoding: row.signatureAlgAndEncoding,
    signCounter: row.signCounter,
  }));
  return verifyAuthenticationResponse(parsed, {
    ...expectedOf(tenant, record),
    registrations: candidates,
    ...(record.transaction ? { transaction: record.transaction as Transaction[] } : {}),
  });
}

async function auditOutcome(
  tenant: Tenant,
  record: RequestRecord,
  outcome: RequestOutcome,
  context: AuditContext,
): Promise<void> {
  const kind = record.operation === "REG" ? "registration" : "authentication";
  const ok = outcome.status === "OK";
  await recordAuditEvent(tenant.id, {
    ...context,
    type: `authenticator.${kind}.${ok ? "succeeded" : "failed"}`,
    details: {
      requestId: record.id,
      userId: record.externalUserId,
      ...(ok ? { deviceId: outcome.deviceId } : {}),
      ...(outcome.status === "FAILED" ? { code: outcome.errorCode, reason: outcome.errorReason } : {}),
    },
  });
}
