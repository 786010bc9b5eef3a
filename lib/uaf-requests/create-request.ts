import { randomUUID } from "node:crypto";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import {
  buildAuthenticationRequest,
  buildDeregistrationRequest,
  buildRegistrationRequest,
  newServerChallenge,
  sealServerData,
  serializeUafMessage,
  textTransaction,
} from "@/lib/ceremonies/uaf";
import { transaction } from "@/lib/db";
import type { UafRegistrationRow, UafRequestOperation, UafRequestRow } from "@/lib/db/schema";
import { AppError, ValidationFailed } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { findUserByExternalId, upsertExternalUser, UserLocked, type User } from "@/lib/users";
import { authenticationPolicy, registrationPolicy } from "./policy";
import { toAuthenticatorRequest, type AuthenticatorRequest } from "./request";
import { serverDataKey } from "./server-data";
import {
  deleteRegistrations,
  insertRequestWithAudit,
  maybeSweepOldRequests,
  selectRegistrationsAndNow,
  selectUserRegistrationsAndNow,
  type NewRequest,
  type RequestUser,
} from "./store";

export interface CreateRequestInput {
  operation: UafRequestOperation;
  username?: string | undefined;
  userId?: string | undefined;
  displayName?: string | undefined;
  clientData?: { remoteAddress?: string | undefined; userAgent?: string | undefined } | undefined;
  transaction?: string | undefined;
  deviceIds?: string[] | undefined;
  authenticatorSelectionCriteria?: Record<string, unknown> | undefined;
  attestationConveyancePreference?: "direct" | "indirect" | "none" | undefined;
  isSecondFactorOnly?: boolean | undefined;
}

/**
 * Creates a REG, AUTH or DEREG request for one of the relying party's users and returns it PENDING
 * with its UAF message. DEREG removes the registrations at once (UAF protocol §3.6.4.1) and is OK
 * straight away; its message tells the app which keys to forget.
 */
export async function createRequest(
  tenant: Tenant,
  input: CreateRequestInput,
  context: AuditContext,
): Promise<AuthenticatorRequest> {
  return auditFailures(tenant.id, "authenticator.request.create", context, async () => {
    checkFieldsForOperation(input);
    const userId = input.userId!;
    const id = randomUUID();
    const create = async () => {
      const { user, now, registrations } = await userWithRegistrations(tenant, input, userId);
      if (input.deviceIds && registrations.length !== new Set(input.deviceIds).size) {
        throw new AppError("DEVICE_NOT_FOUND", "device not found");
      }
      if (input.operation !== "REG" && registrations.length === 0) {
        throw new AppError("NO_REGISTERED_DEVICE", "the user has no registered authenticator");
      }
      const validUntil = new Date(now + tenant.requestTtlSeconds * 1000);
      const values = buildRequest(tenant, input, { id, user, registrations, validUntil });
      const createdAt = new Date(now);
      const completedAt = values.status === "OK" ? createdAt : null;
      // The request and its record in one statement.
      await insertRequestWithAudit(
        { ...values, createdAt, completedAt },
        {
          ...context,
          type: "authenticator.request.created",
          details: { requestId: id, operation: input.operation, userId, deviceIds: input.deviceIds ?? null },
        },
      );
      if (input.operation === "DEREG") {
        await deleteRegistrations(
          tenant.id,
          user.id,
          registrations.map((registration) => registration.id),
        );
      }
      // What was just written, as a read would return it (no read back).
      return toAuthenticatorRequest(tenant, {
        ...NEW_REQUEST_DEFAULTS,
        ...values,
        id,
        createdAt,
        completedAt,
        externalUserId: user.externalId,
        deviceName: null,
        expired: false,
        now,
      });
    };
    // AUTH reads, then writes one statement: atomic alone. REG may update the user first, DEREG removes
    // the registrations after: each in one transaction.
    const request = input.operation === "AUTH" ? await create() : await transaction(create);
    await maybeSweepOldRequests();
    if (input.operation === "DEREG") {
      await recordAuditEvent(tenant.id, {
        ...context,
        type: "authenticator.deregistration.succeeded",
        details: { requestId: id, userId, message: request.request },
      });
    }
    return request;
  });
}

/** The columns an insert leaves to their defaults (or null), as a freshly inserted request has them. */
const NEW_REQUEST_DEFAULTS = {
  challenge: null,
  serverData: null,
  policy: null,
  transactionText: null,
  transaction: null,
  deviceIds: null,
  requireFullAttestation: false,
  isSecondFactorOnly: null,
  clientData: null,
  authenticatorSelection: null,
  oobTokenHash: null,
  deviceId: null,
  errorCode: null,
  errorReason: null,
} satisfies Partial<UafRequestRow>;

function checkFieldsForOperation(input: CreateRequestInput): void {
  const problems: string[] = [];
  if (input.userId === undefined) problems.push("body.userId: is required");
  if (input.transaction !== undefined && input.operation !== "AUTH") {
    problems.push("body.transaction: only an AUTH request carries a transaction");
  }
  if (input.deviceIds !== undefined && input.operation === "REG") {
    problems.push("body.deviceIds: only AUTH and DEREG requests name devices");
  }
  if (problems.length > 0) throw new ValidationFailed(problems);
}

/**
 * The user, their registrations and the database clock. AUTH and DEREG need an existing user (AUTH one
 * that is not locked), read with the registrations in one statement; REG creates the user (or updates
 * the given profile fields) first.
 */
async function userWithRegistrations(
  tenant: Tenant,
  input: CreateRequestInput,
  userId: string,
): Promise<{ user: RequestUser; now: number; registrations: UafRegistrationRow[] }> {
  if (input.operation !== "REG") {
    const found = await selectUserRegistrationsAndNow(tenant.id, userId, input.deviceIds);
    if (!found.user) throw new AppError("USER_NOT_FOUND", "user not found");
    if (input.operation === "AUTH" && found.user.locked) throw new UserLocked();
    return { ...found, user: found.user };
  }
  const user = await resolveRegUser(tenant, input, userId);
  const { now, registrations } = await selectRegistrationsAndNow(tenant.id, user.id, input.deviceIds);
  return {
    user: { id: user.id, username: user.username, externalId: userId, locked: user.lockedAt !== null },
    now,
    registrations,
  };
}

/** REG creates the user (or updates the given profile fields). */
async function resolveRegUser(tenant: Tenant, input: CreateRequestInput, userId: string): Promise<User> {
  const existing = await findUserByExternalId(tenant.id, userId);
  if (existing && input.username === undefined && input.displayName === undefined) return existing;
  const username = input.username ?? existing?.username ?? userId;
  return upsertExternalUser(tenant.id, {
    externalId: userId,
    username,
    displayName: input.displayName ?? existing?.displayName ?? username,
    icon: existing?.icon ?? null,
  });
}

function buildRequest(
  tenant: Tenant,
  input: CreateRequestInput,
  issued: { id: string; user: RequestUser; registrations: UafRegistrationRow[]; validUntil: Date },
): NewRequest {
  const { id, user, registrations, validUntil } = issued;
  const appID = tenant.uaf.appId;
  const username = (input.username ?? user.username ?? user.externalId ?? "").slice(0, 128) || id;
  const common = {
    id,
    tenantId: tenant.id,
    userId: user.id,
    operation: input.operation,
    username,
    appId: appID,
    validUntil,
    isSecondFactorOnly: input.isSecondFactorOnly ?? null,
    clientData: input.clientData ?? null,
    authenticatorSelection: input.authenticatorSelectionCriteria ?? null,
  } satisfies Partial<NewRequest>;

  if (input.operation === "DEREG") {
    const authenticators = registrations.map((r) => ({ aaid: r.aaid, keyID: r.keyId }));
    return {
      ...common,
      status: "OK",
      message: serializeUafMessage(buildDeregistrationRequest({ appID, authenticators })),
      deviceIds: registrations.map((r) => r.id),
    };
  }

  const challenge = newServerChallenge();
  const serverData = sealServerData(
    // Rounded up to the second: serverData must not expire before the request does.
    { requestId: id, expiresAt: new Date(validUntil.getTime() + 999), challenge },
    serverDataKey(tenant.id),
  );
  if (input.operation === "REG") {
    const policy = registrationPolicy(tenant, registrations);
    return {
      ...common,
      status: "PENDING",
      challenge,
      serverData,
      policy,
      requireFullAttestation: input.attestationConveyancePreference === "direct",
      message: serializeUafMessage(
        buildRegistrationRequest({ appID, serverData, challenge, username, policy }),
      ),
    };
  }

  const policy = authenticationPolicy(tenant, registrations);
  const transactions = input.transaction !== undefined ? [textTransaction(input.transaction)] : undefined;
  return {
    ...common,
    status: "PENDING",
    challenge,
    serverData,
    policy,
    transactionText: input.transaction ?? null,
    transaction: transactions ?? null,
    deviceIds: input.deviceIds ? registrations.map((r) => r.id) : null,
    message: serializeUafMessage(
      buildAuthenticationRequest({
        appID,
        serverData,
        challenge,
        policy,
        ...(transactions ? { transaction: transactions } : {}),
      }),
    ),
  };
}
