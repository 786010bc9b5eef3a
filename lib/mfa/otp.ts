import QRCode from "qrcode";
import { Secret, TOTP } from "otpauth";
import { seal, unseal } from "@/lib/crypto";
import type { OtpSecretRow } from "@/lib/db/schema";
import type { Tenant } from "@/lib/tenants";
import {
  deleteOtpSecret,
  findOtpSecretWithLock,
  selectOtpSecret,
  recordOtpFailure,
  upsertOtpSecret,
  useOtpStep,
} from "./store";

/** RFC 6238 defaults every authenticator app supports: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;
/** Codes of the previous and next step are accepted too (clock drift). */
const WINDOW = 1;

const purpose = "otp-secret";
const contextOf = (tenantId: string, userId: string) => `${tenantId}/${userId}`;

function totp(tenant: Tenant, label: string, secret: Secret): TOTP {
  return new TOTP({ issuer: tenant.rpName, label, algorithm: "SHA1", digits: 6, period: PERIOD, secret });
}

/** A new secret for an authenticator app: base32 (typed by hand), the otpauth:// URI and its QR code. */
export async function newOtpSecret(
  tenant: Tenant,
  label: string,
): Promise<{ secret: string; uri: string; image: string }> {
  const secret = new Secret({ size: 20 });
  const uri = totp(tenant, label, secret).toString();
  return { secret: secret.base32, uri, image: await QRCode.toDataURL(uri, { margin: 1, width: 200 }) };
}

/** The time step a code belongs to within the window, or undefined when it matches none. */
function matchingStep(tenant: Tenant, secret: string, code: string): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const now = Date.now();
  const delta = totp(tenant, "", Secret.fromBase32(secret)).validate({
    token: code,
    window: WINDOW,
    timestamp: now,
  });
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD) + delta;
}

/** Whether a code belongs to a secret being set up (before it is saved). */
export function otpCodeMatches(tenant: Tenant, secret: string, code: string): boolean {
  return matchingStep(tenant, secret, code) !== undefined;
}

/** Saves the user's secret (sealed with the master secret), replacing an earlier one. */
export async function saveOtpSecret(tenant: Tenant, userId: string, secret: string): Promise<void> {
  await upsertOtpSecret(tenant.id, userId, seal(secret, purpose, contextOf(tenant.id, userId)));
}

export async function removeOtpSecret(tenant: Tenant, userId: string): Promise<boolean> {
  return deleteOtpSecret(tenant.id, userId);
}

/**
 * Consecutive wrong codes after which a login ends (the first factor again), the user is mailed and the
 * app's codes are locked for a while: a minute, twice as long after each further run, at most an hour.
 */
export const MAX_OTP_FAILURES = 5;

export type OtpCheck =
  | { result: "ok" | "used" | "none" }
  /** `failures`: consecutive wrong codes of the user, this one included; `locked`: this one locked. */
  | { result: "invalid"; failures: number; locked: boolean }
  /** Not checked: a run of wrong codes locked the app's codes for `secondsLeft` more. */
  | { result: "locked"; secondsLeft: number };

/**
 * Checks a code against the user's saved secret. A code is accepted once: a code of the same or an
 * earlier step than the last accepted one is `used`. Wrong codes are counted per user across logins (a
 * right one starts the count again); every `MAX_OTP_FAILURES` lock the codes for a growing while.
 */
export async function checkOtpCode(tenant: Tenant, userId: string, code: string): Promise<OtpCheck> {
  const found = await findOtpSecretWithLock(tenant.id, userId, MAX_OTP_FAILURES);
  if (!found) return { result: "none" };
  const { row, lockSecondsLeft } = found;
  if (lockSecondsLeft > 0) return { result: "locked", secondsLeft: lockSecondsLeft };
  const step = matchingStep(tenant, unseal(row.secret, purpose, contextOf(tenant.id, userId)), code);
  if (step === undefined) {
    return { result: "invalid", ...(await recordOtpFailure(tenant.id, userId, MAX_OTP_FAILURES)) };
  }
  return { result: (await useOtpStep(tenant.id, userId, step)) ? "ok" : "used" };
}

/** The user's authenticator-app secret (sealed), with when it was set up. */
export function findOtpSecret(tenantId: string, userId: string): Promise<OtpSecretRow | undefined> {
  return selectOtpSecret(tenantId, userId);
}

export async function hasOtpSecret(tenantId: string, userId: string): Promise<boolean> {
  return (await selectOtpSecret(tenantId, userId)) !== undefined;
}
