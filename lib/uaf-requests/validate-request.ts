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
import type { UafRegistrationRow } from "@/lib/db/schema";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getTenant, type Tenant } from "@/lib/tenants";
import { checkOobToken } from "./oob-token";
import { trustedFacetIds } from "./policy";
import { EXPIRED_ERROR, toAuthenticatorRequest, type AuthenticatorRequest } from "./request";
import { serverDataKey } from "./server-data";
import {
  advanceSignCounter,
  claimRequest,
  replaceClaimedOutcome,
  completeRequest,
  findRequest,
  findRequestWithCandidates,
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
 * the registration, AUTH advances the sign counter) or FAILED with a UAF status code. Of concurrent or
 * replayed answers exactly one counts; a request that is no longer PENDING comes back unchanged.
 *
 * The answer is checked (parsing, signature, attestation) from an unlocked read of the request and the
 * registrations it may come from, which do not change while it is pending, so no answer waits on
 * another's check. Then the request is claimed: one `UPDATE` that moves it to its outcome only if it is
 * still PENDING, unexpired and (answered with an out-of-band token) still holds the token that was
 * checked. An AUTH answer's sign counter advances, in the claim's transaction, only from the value the
 * check saw (compare-and-set); a REG answer's registration is stored in it. Anything else (no longer
 * pending, expired, a DEREG acknowledgement, a claim that lost) goes the locked way: the request row is
 * locked and read again, and decides.
 */
export async function validateRequest(
  tenant: Tenant,
  requestId: string,
  input: ValidateInput,
  answerer: Answerer,
  context: AuditContext,
): Promise<AuthenticatorRequest> {
  return auditFailures(tenant.id, "authenticator.request.validate", context, async () => {
    const found = await findRequestWithCandidates(tenant.id, requestId);
    if (!found) throw new AppError("UAF_REQUEST_NOT_FOUND", "request not found");
    return answer(tenant, found, input, answerer, context);
  });
}

/**
 * The authenticator app's answer (`PUT /v1/uaf/app/requests/{id}?token=…`): validateRequest for the
 * request's tenant, found with the request in one read.
 */
export async function validateAppAnswer(
  requestId: string,
  token: string,
  input: ValidateInput,
  context: AuditContext,
): Promise<AuthenticatorRequest> {
  const found = await findRequestWithCandidates(undefined, requestId);
  if (!found) throw new AppError("UAF_REQUEST_NOT_FOUND", "request not found");
  const tenant = await getTenant(found.record.tenantId);
  const audit = { ...context, actor: "oob_token" };
  return auditFailures(tenant.id, "authenticator.request.validate", audit, () =>
    answer(tenant, found, input, { kind: "oob-token", token }, audit),
  );
}

type Found = { record: RequestRecord; candidates: UafRegistrationRow[] };

async function answer(
  tenant: Tenant,
  { record, candidates }: Found,
  input: ValidateInput,
  answerer: Answerer,
  context: AuditContext,
): Promise<AuthenticatorRequest> {
  // A wrong token is refused before any signature work (and again on the locked way).
  if (answerer.kind === "oob-token") checkOobToken(record, answerer.token);
  if (record.status === "PENDING" && !record.expired && record.operation !== "DEREG") {
    const checked = await check(tenant, record, candidates, input);
    // Under the claim only the token that was checked may still answer.
    const oobTokenHash = answerer.kind === "oob-token" ? record.oobTokenHash : undefined;
    const stored = await store(tenant, record, checked, oobTokenHash, context);
    if (stored) return toAuthenticatorRequest(tenant, stored);
  }
  return validateLocked(tenant, record.id, input, answerer, context);
}

/** What an answer's check found, before anything is written. */
type Checked =
  | {
      kind: "AUTH";
      registration: { id: string; signCounter: number; name: string };
      signCounter: number;
    }
  | { kind: "REG"; registration: NewRegistration }
  | { kind: "FAILED"; outcome: Extract<RequestOutcome, { status: "FAILED" }> };

type NewRegistration = Parameters<typeof insertRegistration>[0];

/** Parses and checks the answer against the unlocked read (reads nothing more, writes nothing). */
async function check(
  tenant: Tenant,
  record: RequestRecord,
  candidates: UafRegistrationRow[],
  input: ValidateInput,
): Promise<Checked> {
  try {
    if (record.operation === "REG") {
      return { kind: "REG", registration: checkRegistration(tenant, record, input) };
    }
    const verified = await checkAssertion(tenant, record, candidates, input);
    const row = verified.registration.row;
    return {
      kind: "AUTH",
      registration: { id: row.id, signCounter: row.signCounter, name: row.name },
      signCounter: verified.signCounter,
    };
  } catch (error) {
    if (error instanceof UafError) {
      return { kind: "FAILED", outcome: failed(error) };
    }
    throw error;
  }
}

const failed = (error: UafError) =>
  ({ status: "FAILED", errorCode: error.code, errorReason: error.reason }) as const;

/** Thrown inside the claim's transaction to undo it when the request was no longer claimable. */
class ClaimLost extends Error {}

/**
 * Claims the request with the checked answer's outcome and stores what goes with it, with the outcome's
 * audit record; the request as it now reads, or undefined when the claim lost (nothing written).
 */
async function store(
  tenant: Tenant,
  record: RequestRecord,
  checked: Checked,
  oobTokenHash: string | null | undefined,
  context: AuditContext,
): Promise<RequestRecord | undefined> {
  const completed = (outcome: RequestOutcome, deviceName: string | null = null): RequestRecord => ({
    ...record,
    status: outcome.status,
    deviceId: outcome.status === "OK" ? outcome.deviceId : null,
    deviceName: outcome.status === "OK" ? deviceName : null,
    errorCode: outcome.status === "FAILED" ? outcome.errorCode : null,
    errorReason: outcome.status === "FAILED" ? outcome.errorReason : null,
    oobTokenHash: null,
    completedAt: new Date(record.now),
  });
  const claim = (outcome: RequestOutcome) =>
    claimRequest(tenant.id, record.id, outcome, oobTokenHash, outcomeEvent(record, outcome, context));

  if (checked.kind === "FAILED") {
    return (await claim(checked.outcome)) ? completed(checked.outcome) : undefined;
  }
  try {
    return await transaction(async () => {
      if (checked.kind === "REG") {
        const stored = await insertRegistration(checked.registration);
        const outcome: RequestOutcome = stored
          ? { status: "OK", deviceId: stored.id }
          : failed(alreadyRegistered());
        if (!(await claim(outcome))) throw new ClaimLost();
        return completed(outcome, stored?.name ?? null);
      }
      // AUTH: the claim first (it takes the request's row lock), then the counter's compare-and-set,
      // which carries the success record; a counter that moved meanwhile fails the request instead.
      const { registration } = checked;
      const ok: RequestOutcome = { status: "OK", deviceId: registration.id };
      if (!(await claimRequest(tenant.id, record.id, ok, oobTokenHash, undefined))) throw new ClaimLost();
      const advanced = await advanceSignCounter(
        tenant.id,
        registration.id,
        registration.signCounter,
        checked.signCounter,
        outcomeEvent(record, ok, context),
      );
      if (advanced) return completed(ok, registration.name);
      // Claimed (OK) in this transaction: it now moves to FAILED instead, with that record.
      const outcome = failed(counterChanged());
      await replaceClaimedOutcome(tenant.id, record.id, outcome, outcomeEvent(record, outcome, context));
      return completed(outcome);
    });
  } catch (error) {
    if (error instanceof ClaimLost) return undefined;
    throw error;
  }
}

/**
 * The locked way (the request row locked, read again, decided under the lock): for requests no longer
 * pending or past `validUntil`, DEREG acknowledgements and answers whose claim lost.
 */
async function validateLocked(
  tenant: Tenant,
  requestId: string,
  input: ValidateInput,
  answerer: Answerer,
  context: AuditContext,
): Promise<AuthenticatorRequest> {
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
      : await verify(tenant, record, input);
    await completeRequest(tenant.id, requestId, outcome);
    return { record: (await findRequest(tenant.id, requestId))!, outcome };
  });
  if (outcome) await auditOutcome(tenant, record, outcome, context);
  return toAuthenticatorRequest(tenant, record);
}

/** The locked way's check of a pending, unexpired request (the claim lost to a change that kept it so). */
async function verify(tenant: Tenant, record: RequestRecord, input: ValidateInput): Promise<RequestOutcome> {
  try {
    if (record.operation === "REG") {
      const stored = await insertRegistration(checkRegistration(tenant, record, input));
      if (!stored) throw alreadyRegistered();
      return { status: "OK", deviceId: stored.id };
    }
    const candidates = await selectRegistrations(tenant.id, record.userId, record.deviceIds ?? undefined);
    const verified = await checkAssertion(tenant, record, candidates, input);
    const row = verified.registration.row;
    const advanced = await advanceSignCounter(tenant.id, row.id, row.signCounter, verified.signCounter);
    if (!advanced) throw counterChanged();
    return { status: "OK", deviceId: row.id };
  } catch (error) {
    if (error instanceof UafError) return failed(error);
    throw error;
  }
}

/** Parses and checks a REG answer (attestation included): the registration to store. Writes nothing. */
function checkRegistration(tenant: Tenant, record: RequestRecord, input: ValidateInput): NewRegistration {
  const verified = verifyRegistrationResponse(parseUafResponse(input.uafResponse), {
    ...expectedOf(tenant, record),
    attestation: {
      trustedRoots: tenant.uaf.trustedRoots,
      allowSurrogate: tenant.uaf.allowSurrogate && !record.requireFullAttestation,
    },
  });
  const info = input.deviceKeyInfo ?? {};
  return {
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
  };
}

function alreadyRegistered(): UafError {
  return new UafError(
    UafStatus.UNACCEPTABLE_AUTHENTICATOR,
    "key_already_registered",
    "This authenticator key is already registered",
  );
}

function defaultKeyName(info: DeviceKeyInfo, aaid: string): string {
  const named = info.keyName?.trim();
  if (named) return named;
  const device = [info.manufacturer, info.model].filter(Boolean).join(" ").trim();
  return (device || `UAF authenticator ${aaid}`).slice(0, 64);
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

/** Parses and checks an AUTH answer against the registrations it may come from (reads nothing). */
async function checkAssertion(
  tenant: Tenant,
  record: RequestRecord,
  registrations: UafRegistrationRow[],
  input: ValidateInput,
) {
  const parsed = parseUafResponse(input.uafResponse);
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

/** The audit record of an answer's outcome. */
function outcomeEvent(record: RequestRecord, outcome: RequestOutcome, context: AuditContext) {
  const kind = record.operation === "REG" ? "registration" : "authentication";
  const ok = outcome.status === "OK";
  return {
    ...context,
    type: `authenticator.${kind}.${ok ? "succeeded" : "failed"}`,
    details: {
      requestId: record.id,
      userId: record.externalUserId,
      ...(ok ? { deviceId: outcome.deviceId } : {}),
      ...(outcome.status === "FAILED" ? { code: outcome.errorCode, reason: outcome.errorReason } : {}),
    },
  };
}

async function auditOutcome(
  tenant: Tenant,
  record: RequestRecord,
  outcome: RequestOutcome,
  context: AuditContext,
): Promise<void> {
  await recordAuditEvent(tenant.id, outcomeEvent(record, outcome, context));
}
