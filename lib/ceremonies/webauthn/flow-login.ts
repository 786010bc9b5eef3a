import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { AuthenticationResponse } from "./responses";
import { findCredentialWithOwner, findUserCredentials, type Credential } from "@/lib/credentials";
import { transaction } from "@/lib/db";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import {
  assertionFailed,
  assertionRequestOptions,
  finalizeAssertion,
  issueAssertionOptions,
  recordAssertionUse,
  verifyAssertionSignature,
} from "./assertion";
import { consumeChallenge, renewDiscoverableChallenge } from "./challenges-store";
import { isEmbedded, readClientData } from "./client-data";

/**
 * WebAuthn for the flow API's login: request options for a discoverable login (the passkey button and
 * conditional UI), for one user's passkeys, or for one user's security keys (MFA), and the matching
 * verifications. Passkeys use the public API's `public-login` ceremony (same checks, MFA keys refused);
 * security keys use `mfa-login` challenges under the tenant's MFA policy, for platform users too.
 */
export type FlowAssertionMode = "discoverable" | "user" | "security_key";

const LOGIN = "webauthn.login";
const MFA_LOGIN = "webauthn.mfa_login";

/** The user's passkeys (credentials usable as a first factor). */
export function userPasskeys(tenant: Tenant, userId: string): Promise<Credential[]> {
  return findUserCredentials(tenant.id, userId, { mfa: false });
}

/** The user's security keys (credentials usable only as a second factor). */
export function userSecurityKeys(tenant: Tenant, userId: string): Promise<Credential[]> {
  return findUserCredentials(tenant.id, userId, { mfa: true });
}

/**
 * Request options for a flow login: discoverable (no user, no allowCredentials), the user's passkeys,
 * or the user's security keys. Each call stores a new single-use challenge (with its audit record, in
 * one statement), except that discoverable options may hand out again `reuse`, a discoverable challenge
 * this flow was given before and has not used (conditional UI's, when the passkey button is pressed):
 * it is renewed for a full lifetime if it is still unused and unexpired, else a new one is stored.
 */
export async function issueFlowRequestOptions(
  tenant: Tenant,
  mode: FlowAssertionMode,
  userId: string | null,
  context: AuditContext,
  reuse?: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const type = `${mode === "security_key" ? MFA_LOGIN : LOGIN}.initialize`;
  return auditFailures(tenant.id, type, context, async () => {
    if (mode !== "discoverable" && userId === null) throw new Error(`${mode} request options need a user`);
    if (
      mode === "discoverable" &&
      reuse &&
      (await renewDiscoverableChallenge(tenant.id, "public-login", reuse, tenant.challengeTtlSeconds))
    ) {
      return assertionRequestOptions(
        tenant,
        "public-login",
        null,
        new Uint8Array(Buffer.from(reuse, "base64url")),
      );
    }
    const credentials =
      mode === "discoverable"
        ? null
        : await (mode === "user" ? userPasskeys : userSecurityKeys)(tenant, userId!);
    return issueAssertionOptions(tenant, mode === "security_key" ? "mfa-login" : "public-login", {
      userId: mode === "discoverable" ? null : userId,
      credentials,
      audit: {
        ...context,
        type: `${type}.succeeded`,
        actor: userId ?? context.actor,
        details: { flow: true, mode },
      },
    });
  });
}

/**
 * The flow's `assertion_response` input (what `navigator.credentials.get()` gives, as JSON) as
 * SimpleWebAuthn takes it, or undefined when the value is not one. The same schema as the Passkey and
 * public APIs' finalize bodies, as the flow's attestation inputs use theirs.
 */
export function parseAssertionResponse(value: unknown): AuthenticationResponseJSON | undefined {
  const parsed = AuthenticationResponse.safeParse(value);
  return parsed.success ? (parsed.data as AuthenticationResponseJSON) : undefined;
}

/** The challenge an assertion answers (from its clientDataJSON), or undefined when unreadable. */
export function assertionChallengeOf(response: AuthenticationResponseJSON): string | undefined {
  try {
    return readClientData(response.response.clientDataJSON, "unable to finish login").challenge;
  } catch {
    return undefined;
  }
}

/** True when the credential is one of the tenant's security keys (refused for passkey login). */
export async function isSecurityKey(tenant: Tenant, credentialId: string): Promise<boolean> {
  return (await findCredentialWithOwner(tenant.id, credentialId))?.credential.isMfa === true;
}

/**
 * Verifies a passkey assertion of a flow (discoverable or for the user the options named) with every
 * check of the public API's login, and returns the credential's owner. No session is issued: the flow
 * decides what follows.
 */
export async function finalizeFlowPasskeyLogin(
  tenant: Tenant,
  response: AuthenticationResponseJSON,
  context: AuditContext,
): Promise<User> {
  // The completion only reads: the sign count's compare-and-set and its record are one statement, so
  // no transaction is needed (the flow creates the session afterwards).
  return auditFailures(tenant.id, `${LOGIN}.finalize`, context, () =>
    finalizeAssertion(
      tenant,
      "public-login",
      response,
      context,
      async ({ owner: user }) => {
        if (!user) throw assertionFailed("the credential's user no longer exists");
        return { result: user, details: { flow: true } };
      },
      { completeWrites: false },
    ),
  );
}

const NOT_USABLE = "the credential is unknown, not one of the user's security keys or was not offered";

/**
 * Verifies a security-key assertion (MFA after a first factor) for `user`: the `mfa-login` challenge
 * must have been issued for this user and is consumed whatever the outcome; the credential must be one
 * of the user's security keys and offered; then signature, origin, RP ID, flags (UV as the MFA policy
 * asks), backup eligibility and sign count are checked as for any assertion (WebAuthn §7.2), and the
 * use is recorded with a compare-and-set on the sign count. The Passkey API's MFA login takes only
 * users with an external id, so the flow has its own finalize for platform users.
 */
export async function finalizeSecurityKeyLogin(
  tenant: Tenant,
  user: User,
  response: AuthenticationResponseJSON,
  context: AuditContext,
): Promise<Credential> {
  const audit = { ...context, actor: user.id };
  return auditFailures(tenant.id, `${MFA_LOGIN}.finalize`, audit, async () => {
    const clientData = readClientData(response.response.clientDataJSON, "unable to finish login");
    const ceremony = await consumeChallenge(tenant.id, "mfa-login", clientData.challenge);
    if (!ceremony || ceremony.userId !== user.id) {
      throw assertionFailed("received challenge does not match with any stored one");
    }
    if (ceremony.expired) throw assertionFailed("Session has Expired");
    if (isEmbedded(clientData)) throw assertionFailed("cross-origin (embedded) ceremonies are not allowed");
    const found = await findCredentialWithOwner(tenant.id, response.rawId);
    const credential = found?.credential;
    if (
      !credential ||
      credential.userId !== user.id ||
      !credential.isMfa ||
      (ceremony.allowCredentials && !ceremony.allowCredentials.includes(credential.id))
    ) {
      throw assertionFailed(NOT_USABLE);
    }
    const info = await verifyAssertionSignature(tenant, response, credential, ceremony);
    return transaction(async () => {
      await recordAssertionUse(tenant, credential, info);
      await recordAuditEvent(tenant.id, {
        ...audit,
        type: `${MFA_LOGIN}.finalize.succeeded`,
        details: { credential_id: credential.id, flow: true },
      });
      return credential;
    });
  });
}
