import { metrics } from "./registry";

/**
 * Ceremonies by kind and outcome, read from the audit event types as they are recorded
 * (`recordAuditEvent` calls {@link countAuditEvent}): `<kind>[.<step>].<outcome>`.
 */

/** The ceremonies Sesame audits, by the prefix of their audit events. Anything else is `other`. */
export const CEREMONY_KINDS = new Set([
  // Passkey API (lib/ceremonies/webauthn, auditPrefix)
  "passkey.registration",
  "passkey.login",
  "passkey.mfa_registration",
  "passkey.mfa_login",
  "passkey.transaction",
  // public and flow API WebAuthn (sign-up included), security keys
  "webauthn.registration",
  "webauthn.login",
  "webauthn.mfa_login",
  "webauthn.security_key",
  // passcodes, passwords, authenticator apps, token exchange
  "passcode.login",
  "passcode.check",
  "password.login",
  "password.verify",
  "otp.check",
  "token.exchange",
  // FIDO UAF (Authenticator API)
  "authenticator.registration",
  "authenticator.authentication",
  "authenticator.deregistration",
]);

export type CeremonyOutcome = "succeeded" | "failed";

const EVENT = /^(.+?)(?:\.(initialize|finalize))?\.(succeeded|failed)$/;

/**
 * The ceremony an audit event ends, or undefined when it ends none. A two-step ceremony counts once:
 * when its finalize step succeeds or fails, or when its initialize step fails (a successful initialize
 * is a ceremony begun, not ended). Events without an outcome (`user.deleted`, `api_key.revoked`) are
 * no ceremony; an unknown kind with an outcome is `other`, so the label set stays bounded.
 */
export function ceremonyOf(type: string): { kind: string; outcome: CeremonyOutcome } | undefined {
  const match = EVENT.exec(type);
  if (!match) return undefined;
  const [, prefix = "", step, outcome] = match;
  if (step === "initialize" && outcome === "succeeded") return undefined;
  return { kind: CEREMONY_KINDS.has(prefix) ? prefix : "other", outcome: outcome as CeremonyOutcome };
}

/** The audit log's hook: counts the ceremony an event ends, if any (`sesame_ceremonies_total`). */
export function countAuditEvent(type: string): void {
  const ceremony = ceremonyOf(type);
  if (ceremony) metrics().ceremonies.inc(ceremony);
}
