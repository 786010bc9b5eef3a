import { AppError } from "@/lib/errors";
import { growingLockSeconds } from "@/lib/rate-limit/growing-lock";
import type { Tenant } from "@/lib/tenants";

/** No tenant may ask for less (NIST SP 800-63B). */
export const MIN_PASSWORD_FLOOR = 8;
/** The longest password accepted, in Unicode code points: the tenant's minimum may be at most this. */
export const MAX_PASSWORD_LENGTH = 128;
/**
 * Consecutive failed logins after which the password is locked for a while, and again after each
 * further run of as many: a temporary lock a stranger cannot make last, growing with every run.
 */
export const MAX_FAILED_ATTEMPTS = 10;

/** How long the lock set at `failedAttempts` consecutive failures lasts (a multiple of the maximum). */
export const lockSeconds = (failedAttempts: number): number =>
  growingLockSeconds(failedAttempts, MAX_FAILED_ATTEMPTS);

/** Passwords answer only for tenants that enable them, as Hanko registers the routes only then. */
export function ensurePasswordsEnabled(tenant: Tenant): void {
  if (!tenant.platform.password.enabled) {
    throw new AppError("PASSWORDS_DISABLED", undefined, {
      details: ["passwords are not enabled for this tenant"],
    });
  }
}

/**
 * The form a password is hashed in: Unicode NFKC (NIST SP 800-63B §5.1.1.2), so the same password
 * typed on different keyboards or platforms matches. Nothing is trimmed.
 */
export function normalizePassword(password: string): string {
  return password.normalize("NFKC");
}

/** Code points, so that a character outside the BMP counts once (as Hanko counts runes). */
const lengthOf = (password: string) => [...password].length;

const tooLong = () =>
  new AppError("PASSWORD_TOO_LONG", undefined, {
    details: [`password must be at most ${MAX_PASSWORD_LENGTH} characters long`],
  });

/** The shortest new password the tenant accepts: its setting, never below 8. */
export const minPasswordLength = (tenant: Tenant): number =>
  Math.max(MIN_PASSWORD_FLOOR, tenant.platform.password.minLength);

/** A new password's length rules: the tenant's minimum (never below 8) and the maximum. */
export function checkNewPassword(tenant: Tenant, password: string): void {
  const min = minPasswordLength(tenant);
  const length = lengthOf(password);
  if (length < min) {
    throw new AppError("PASSWORD_TOO_SHORT", undefined, {
      details: [`password must be at least ${min} characters long`],
    });
  }
  if (length > MAX_PASSWORD_LENGTH) throw tooLong();
}

/** A login password longer than any password can be is refused before anything is looked up. */
export function checkLoginPassword(password: string): void {
  if (lengthOf(password) > MAX_PASSWORD_LENGTH) throw tooLong();
}
