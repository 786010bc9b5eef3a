import { findUserCredentials } from "@/lib/credentials";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { hasOtpSecret } from "./otp";

/** The second factors a user has set up, of those the tenant has on (MFA off: none). */
export interface SecondFactors {
  totp: boolean;
  security_key: boolean;
}

export const NO_SECOND_FACTORS: SecondFactors = { totp: false, security_key: false };

export async function secondFactorsOf(tenant: Tenant, userId: string): Promise<SecondFactors> {
  const mfa = tenant.platform.mfa;
  if (!mfa.enabled) return NO_SECOND_FACTORS;
  return {
    totp: mfa.totp && (await hasOtpSecret(tenant.id, userId)),
    security_key:
      mfa.securityKeys && (await findUserCredentials(tenant.id, userId, { mfa: true })).length > 0,
  };
}

export const hasSecondFactor = (factors: SecondFactors): boolean => factors.totp || factors.security_key;

/**
 * Whether a login's authentication methods are enough whatever second factor the user has: a passkey
 * proves the user on its own (as in Hanko), a second factor completes any first one.
 */
export function satisfiesSecondFactor(amr: readonly string[]): boolean {
  return amr.some((method) => method === "passkey" || method === "totp" || method === "security_key");
}

/** A one-factor login of a user whose tenant enforces the second factor they set up. */
export class SecondFactorRequired extends AppError {
  constructor() {
    super("SECOND_FACTOR_REQUIRED", "Forbidden", {
      details: [
        "the user has a second factor: log in through the flow API (POST {tenant_url}/login), which asks for it",
      ],
    });
  }
}

/**
 * Refuses (`SecondFactorRequired`, 403) a session for `amr` when it lacks a second factor the user has
 * set up and the tenant enforces. A passkey or a second factor in `amr` needs no look-up.
 */
export async function requireSecondFactor(
  tenant: Tenant,
  userId: string,
  amr: readonly string[],
): Promise<void> {
  if (satisfiesSecondFactor(amr)) return;
  if (hasSecondFactor(await secondFactorsOf(tenant, userId))) throw new SecondFactorRequired();
}
