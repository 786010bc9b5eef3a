/**
 * What a person did, in words, from their audit events (the user page's "Recent activity"): "Signed in
 * with a passkey", "Added an email address". Steps of a flow (`flow.*`), ceremony starts (`*.initialize.*`)
 * and reads are not something a person did and are left out (undefined); a type without words of its own
 * is shown as its words ("Password locked").
 */

export interface ActivityEvent {
  type: string;
  details: Record<string, unknown>;
}

/** How a session's `amr` reads: the strongest method first. */
function signInMethod(amr: unknown): string {
  const methods = Array.isArray(amr) ? amr.map(String) : [];
  if (methods.includes("passkey")) return "with a passkey";
  if (methods.includes("security_key")) return "with a security key";
  if (methods.includes("pwd"))
    return methods.includes("totp") ? "with a password and an authenticator app" : "with a password";
  if (methods.includes("otp")) return "with a code sent by email";
  if (methods.includes("totp")) return "with an authenticator app";
  if (methods.some((method) => method.startsWith("ext"))) return "with a third-party account";
  return "";
}

/** Exact types and their words. */
const WORDS: Record<string, string> = {
  "user.signup.succeeded": "Signed up",
  "user.created": "Account created",
  "user.updated": "Changed their profile",
  "user.deleted": "Deleted their account",
  "user.metadata.updated": "Changed their metadata",
  "username.changed": "Changed their username",
  "username.deleted": "Removed their username",
  "email.create.succeeded": "Added an email address",
  "email.delete.succeeded": "Removed an email address",
  "email.set_primary.succeeded": "Changed their primary email address",
  "email.primary_changed": "Changed their primary email address",
  "email.verified": "Verified an email address",
  "password.set.succeeded": "Set a password",
  "password.delete.succeeded": "Removed their password",
  "password.verify.failed": "Entered a wrong password",
  "password.login.failed": "Failed to sign in with a password",
  "password.locked": "Password locked after too many wrong attempts",
  "passcode.login.finalize.failed": "Entered a wrong email code",
  "passcode.check.failed": "Entered a wrong email code",
  "passkey.registration.finalize.succeeded": "Added a passkey",
  "webauthn.registration.finalize.succeeded": "Added a passkey",
  "passkey.mfa_registration.finalize.succeeded": "Added a security key",
  "passkey.credential.updated": "Renamed a passkey",
  "passkey.credential.deleted": "Removed a passkey",
  "webauthn.credential.delete.succeeded": "Removed a passkey",
  "passkey.login.finalize.failed": "Failed to sign in with a passkey",
  "webauthn.login.finalize.failed": "Failed to sign in with a passkey",
  "passkey.login.failed": "Failed to sign in with a passkey",
  "passkey.transaction.finalize.succeeded": "Confirmed a transaction with a passkey",
  "otp_secret.created": "Set up an authenticator app",
  "otp_secret.deleted": "Removed their authenticator app",
  "otp.check.failed": "Entered a wrong authenticator app code",
  "otp.attempts_exceeded": "Authenticator app locked after too many wrong codes",
  "identity.created": "Connected a third-party account",
  "identity.linked": "Connected a third-party account",
  "identity.deleted": "Disconnected a third-party account",
  "thirdparty.signin.failed": "Failed to sign in with a third-party account",
  "saml.acs.failed": "Failed to sign in with single sign-on",
  "session.revoked": "Signed out of other devices",
  "user.logged_out": "Signed out",
  "user.locked": "Locked",
  "user.unlocked": "Unlocked",
};

/** Types that record a step, a start or a read rather than something the person did. */
const HIDDEN = [/^flow\./, /\.initialize\./, /\.started$/, /\.list(ed)?$/, /\.fetch(ed)?$/, /^rate_limit\./];

/** The words for one event, or undefined when it is a step of something else. */
export function describeActivity(event: ActivityEvent): string | undefined {
  const { type, details } = event;
  if (HIDDEN.some((pattern) => pattern.test(type))) return undefined;
  if (type === "session.created") {
    if (details.impersonated_by || details.impersonatedBy) return "Signed in by an administrator";
    const method = signInMethod(details.amr);
    return method ? `Signed in ${method}` : "Signed in";
  }
  // A successful login's own record says less than its session's (which follows it): one line per sign-in.
  if (
    /\.login(\.finalize)?\.succeeded$/.test(type) ||
    /^(thirdparty\.signin|saml\.acs|passcode\.check|otp\.check)\.succeeded$/.test(type)
  ) {
    return undefined;
  }
  const words = WORDS[type];
  if (words) return words;
  // No words of its own: the type as words ("authenticator.device.renamed" → "Authenticator device renamed").
  const text = type
    .replace(/[._]+/g, " ")
    .replace(/\bsucceeded\b/, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The newest `limit` events that say what the person did, with their words (events are newest first).
 */
export function recentActivity<T extends ActivityEvent>(
  events: T[],
  limit: number,
): (T & { words: string })[] {
  const described: (T & { words: string })[] = [];
  for (const event of events) {
    const words = describeActivity(event);
    if (words) described.push({ ...event, words });
    if (described.length === limit) break;
  }
  return described;
}
