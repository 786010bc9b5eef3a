/**
 * Which audit events the console's analytics count, and as what. Pure: no database. An event that is
 * not counted yields undefined, and recording it costs nothing more than its audit row.
 */

export const LOGIN_METHODS = ["passkey", "passcode", "password", "third_party"] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

export type Metric = "signup" | `login.${LoginMethod}` | "login.failed";

export interface Counted {
  metric: Metric;
  /** A successful login's user: recorded as active on the day (passkey adoption). */
  activeUser?: string;
}

/** The audit fields the classification reads (a subset of lib/audit's AuditEvent). */
export interface ClassifiedEvent {
  type: string;
  actor?: string | null;
  details?: Record<string, unknown>;
  impersonatedBy?: string | null;
}

/**
 * Failed logins: the finalize step of each login ceremony, on every surface. The flow API's password and
 * passcode steps are `password.verify` and `passcode.check` (a wrong code while confirming a sign-up's
 * address counts too: the log does not tell them apart).
 */
const FAILED_LOGINS = new Set([
  "passkey.login.finalize.failed", // Passkey API
  "webauthn.login.finalize.failed", // public API and flow API passkey logins
  "passcode.login.finalize.failed", // public API
  "password.login.failed", // public API
  "password.verify.failed", // flow API
  "passcode.check.failed", // flow API
  "saml.acs.failed", // SAML: a response refused at the ACS
]);

/** The login method of a session's `amr`: its first factor. */
function methodOf(amr: unknown): LoginMethod | undefined {
  if (!Array.isArray(amr) || typeof amr[0] !== "string") return undefined;
  const first = amr[0];
  if (first === "passkey" || first === "security_key") return "passkey";
  if (first === "otp") return "passcode";
  if (first === "pwd") return "password";
  if (first.startsWith("ext")) return "third_party";
  return undefined;
}

/**
 * - `user.signup.succeeded` is a sign-up (not when the public API answered an earlier, unfinished
 *   sign-up of the same address again: `details.again`).
 * - A login is a session started with a login method (`session.created`, method from `details.amr`), so
 *   each login counts once whatever surface or flow led to it; impersonation (`amr: []`) and a sign-up
 *   without verification (no `amr`) are none. The Passkey API issues no sessions: its logins are
 *   `passkey.login.finalize.succeeded`, whose actor is the relying party's user id (`external:<id>`).
 * - A sign-up through a third-party or SAML provider is `identity.created` with `details.signup`.
 * - Failed logins: {@link FAILED_LOGINS}, and third-party sign-ins refused at the callback.
 */
export function classifyEvent(event: ClassifiedEvent): Counted | undefined {
  const { type, details = {} } = event;
  if (type === "user.signup.succeeded") return details.again === true ? undefined : { metric: "signup" };
  // A first sign-in through a third-party or SAML provider that created the user (lib/identities).
  if (type === "identity.created") return details.signup === true ? { metric: "signup" } : undefined;
  // A third-party sign-in refused on the way back (a refused start is not a login attempt).
  if (type === "thirdparty.signin.failed")
    return details.step === "callback" ? { metric: "login.failed" } : undefined;
  if (type === "session.created") {
    if (event.impersonatedBy || details.impersonated_user_id) return undefined;
    const method = methodOf(details.amr);
    if (!method) return undefined;
    return { metric: `login.${method}`, ...(event.actor ? { activeUser: event.actor } : {}) };
  }
  if (type === "passkey.login.finalize.succeeded") {
    return { metric: "login.passkey", ...(event.actor ? { activeUser: `external:${event.actor}` } : {}) };
  }
  if (FAILED_LOGINS.has(type)) return { metric: "login.failed" };
  return undefined;
}
