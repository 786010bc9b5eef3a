import { randomUUID } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { decodeJwt } from "jose";
import type { AuditContext } from "@/lib/audit";
import {
  finalizeLogin,
  finalizeRegistration,
  initializeLogin,
  initializeRegistration,
  type CreationOptions,
} from "@/lib/ceremonies/webauthn";
import {
  findUserCredentials,
  removeCredential,
  renameUserCredential,
  type Credential,
} from "@/lib/credentials";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { consumeRateLimit } from "@/lib/rate-limit";
import { findUserByExternalId } from "@/lib/users";
import { consoleTenant } from "./console-tenant";
import { consumeEnrolment, createFirstOwner, findEnrolment } from "./enrolments";
import { operatorsLog } from "./log";
import { findOperator, OperatorEmail, operatorActor, type Operator } from "./operator";
import { createOperatorSession } from "./sessions";
import { updateOperatorSignIn } from "./store";

/**
 * Operators' passkeys: credentials of the console tenant whose user's external id is the operator id,
 * registered and verified by the same ceremony code as every tenant's passkeys.
 */

const invalidLink = () => new AppError("TOKEN_NOT_FOUND", "this link is invalid, used or expired");

/** What an enrolment page shows: whose link it is (null email: the first owner's setup link). */
export async function describeEnrolment(token: string): Promise<{ email: string | null; setup: boolean }> {
  const enrolment = await findEnrolment(token);
  if (!enrolment) throw invalidLink();
  return { email: enrolment.operator?.email ?? null, setup: enrolment.operator === null };
}

/** Creation options for the passkey of an enrolment link (`email` only for the setup link). */
export async function beginEnrolment(
  token: string,
  email: string | undefined,
  context: AuditContext,
): Promise<CreationOptions> {
  const enrolment = await findEnrolment(token);
  if (!enrolment) throw invalidLink();
  const tenant = await consoleTenant();
  if (enrolment.operator) {
    return initializeRegistration(
      tenant,
      "registration",
      { userId: enrolment.operator.id, username: enrolment.operator.email },
      context,
    );
  }
  const address = OperatorEmail.safeParse(email);
  if (!address.success) throw new AppError("VALIDATION_FAILED", "enter a valid email address");
  // The first owner's id is chosen now; the operator row is made when the passkey is registered.
  return initializeRegistration(
    tenant,
    "registration",
    { userId: randomUUID(), username: address.data },
    context,
  );
}

/**
 * Registers the passkey of an enrolment link and uses the link up, in one transaction: a failed
 * registration leaves the link usable; of two racing registrations only one gets it.
 */
export async function finishEnrolment(
  token: string,
  response: RegistrationResponseJSON,
  context: AuditContext,
): Promise<Operator> {
  const tenant = await consoleTenant();
  return transaction(async () => {
    const enrolment = await findEnrolment(token);
    if (!enrolment || !(await consumeEnrolment(enrolment.id))) throw invalidLink();
    const { token: proof } = await finalizeRegistration(tenant, "registration", response, context);
    const subject = decodeJwt(proof).sub ?? "";
    let operator: Operator;
    if (enrolment.operator) {
      if (subject !== enrolment.operator.id) throw invalidLink();
      operator = enrolment.operator;
    } else {
      const user = await findUserByExternalId(tenant.id, subject);
      if (!user?.username) throw invalidLink();
      operator = await createFirstOwner(subject, user.username);
    }
    await operatorsLog(
      enrolment.operator ? "operator.passkey.enrolled" : "operator.setup.completed",
      operatorActor(operator),
      { operator_id: operator.id, email: operator.email },
      context,
    );
    return operator;
  });
}

/** Options for a discoverable sign-in (also conditional UI): any operator passkey. */
export async function beginSignIn(context: AuditContext): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return initializeLogin(await consoleTenant(), "login", {}, context);
}

/** Verifies an operator's assertion and opens a console session; Unauthorized on any failure. */
export async function finishSignIn(
  response: AuthenticationResponseJSON,
  context: AuditContext,
): Promise<{ operator: Operator; sessionId: string }> {
  const tenant = await consoleTenant();
  // Bounded per IP like the options: a flood of bogus assertions cannot fill the operators' log.
  await consumeRateLimit(tenant, "webauthn_login", { ip: context.ip ?? null, audit: context });
  const { token } = await finalizeLogin(tenant, "login", response, context);
  const operator = await findOperator(decodeJwt(token).sub ?? "");
  if (!operator) throw new AppError("OPERATOR_PASSKEY_UNKNOWN", "this passkey belongs to no operator");
  await updateOperatorSignIn(operator.id);
  const sessionId = await createOperatorSession(operator.id, context);
  await operatorsLog(
    "operator.signed_in",
    operatorActor(operator),
    { operator_id: operator.id, email: operator.email },
    context,
  );
  return { operator, sessionId };
}

/** Adding a passkey needs a sign-in this recent: a stolen session cannot plant a passkey of its own. */
export const ADD_PASSKEY_WITHIN_MINUTES = 10;

/** Creation options for one more passkey of the signed-in operator (signed in the last 10 minutes). */
export async function beginAddPasskey(
  operator: Operator,
  signedInAt: Date,
  context: AuditContext,
): Promise<CreationOptions> {
  if (Date.now() - signedInAt.getTime() > ADD_PASSKEY_WITHIN_MINUTES * 60_000) {
    throw new AppError(
      "RECENT_SIGN_IN_REQUIRED",
      `sign out and in again to add a passkey (it needs a sign-in in the last ${ADD_PASSKEY_WITHIN_MINUTES} minutes)`,
    );
  }
  return initializeRegistration(
    await consoleTenant(),
    "registration",
    { userId: operator.id, username: operator.email },
    context,
  );
}

export async function finishAddPasskey(
  operator: Operator,
  response: RegistrationResponseJSON,
  context: AuditContext,
): Promise<void> {
  const tenant = await consoleTenant();
  await transaction(async () => {
    const { token } = await finalizeRegistration(tenant, "registration", response, context);
    if (decodeJwt(token).sub !== operator.id)
      throw new AppError("CHALLENGE_NOT_FOUND", "the registration was started by another operator");
    await operatorsLog(
      "operator.passkey.added",
      operatorActor(operator),
      { operator_id: operator.id },
      context,
    );
  });
}

export async function listOperatorPasskeys(operatorId: string): Promise<Credential[]> {
  const tenant = await consoleTenant();
  const user = await findUserByExternalId(tenant.id, operatorId);
  return user ? findUserCredentials(tenant.id, user.id) : [];
}

/** Removes one of the operator's passkeys; the last one stays (it is the only way in). */
export async function removeOperatorPasskey(operator: Operator, credentialId: string, context: AuditContext) {
  const tenant = await consoleTenant();
  await transaction(async () => {
    const user = await findUserByExternalId(tenant.id, operator.id);
    const passkeys = user ? await findUserCredentials(tenant.id, user.id) : [];
    if (!user || !passkeys.some((passkey) => passkey.id === credentialId))
      throw new AppError("OPERATOR_PASSKEY_NOT_FOUND", "passkey not found");
    if (passkeys.length <= 1)
      throw new AppError("LAST_OPERATOR_PASSKEY", "your last passkey cannot be removed; add another first");
    await removeCredential(tenant.id, user.id, credentialId);
    await operatorsLog(
      "operator.passkey.removed",
      operatorActor(operator),
      { operator_id: operator.id, credential_id: credentialId },
      context,
    );
  });
}

/**
 * Renames one of the operator's own passkeys (the label the account page shows; the name given at
 * registration is a guess from the browser). Another operator's passkey or an unknown id is a 404.
 */
export async function renameOperatorPasskey(
  operator: Operator,
  credentialId: string,
  name: string,
  context: AuditContext,
): Promise<Credential> {
  const tenant = await consoleTenant();
  return transaction(async () => {
    const user = await findUserByExternalId(tenant.id, operator.id);
    if (!user) throw new AppError("OPERATOR_PASSKEY_NOT_FOUND", "passkey not found");
    const renamed = await renameUserCredential(tenant.id, user.id, credentialId, name, context).catch(
      (error: unknown) => {
        if (error instanceof AppError && error.code === "CREDENTIAL_NOT_FOUND")
          throw new AppError("OPERATOR_PASSKEY_NOT_FOUND", "passkey not found");
        throw error;
      },
    );
    await operatorsLog(
      "operator.passkey.renamed",
      operatorActor(operator),
      { operator_id: operator.id, credential_id: credentialId, name },
      context,
    );
    return renamed;
  });
}
