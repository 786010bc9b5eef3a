import { findPrimaryEmail, primaryAddressOf, type PrimaryAddress } from "@/lib/emails";
import { findUserWith, type User } from "@/lib/users";

/**
 * The claims an ID token and the UserInfo endpoint carry for a user, by scope: `email` gives `email` and
 * `email_verified` (the primary address), `profile` gives `name` and `preferred_username`. The user and
 * the address are read in one statement.
 */
export async function accountClaims(tenantId: string, userId: string) {
  const found = await findUserWith(tenantId, userId, primaryAddressOf(tenantId));
  // A locked user has no account here (their tokens are refused before: lib/openid/store.ts findModel).
  if (!found || found.user.lockedAt) return undefined;
  return accountOf(tenantId, found.user, found.extra);
}

/**
 * {@link accountClaims} of a user already read (and found not locked) in this request; its primary
 * address is read when the claims are asked for, unless given (null: none).
 */
export function accountOf(tenantId: string, user: User, address?: PrimaryAddress | null) {
  return {
    accountId: user.id,
    async claims() {
      const email =
        address === undefined ? await findPrimaryEmail(tenantId, user.id) : (address ?? undefined);
      return {
        sub: user.id,
        ...(email ? { email: email.address, email_verified: email.verified } : {}),
        ...((user.name ?? user.displayName ?? user.username)
          ? { name: user.name ?? user.displayName ?? user.username }
          : {}),
        ...(user.username ? { preferred_username: user.username } : {}),
        ...(user.givenName ? { given_name: user.givenName } : {}),
        ...(user.familyName ? { family_name: user.familyName } : {}),
        ...(user.picture ? { picture: user.picture } : {}),
      };
    },
  };
}

/**
 * RFC 8176 `amr` values for Sesame's session methods: a passkey is a hardware- or software-bound key
 * whose use needed the user (`hwk`, `user`), a mailed or app code `otp`, a password `pwd`; two or more
 * factors add `mfa`. Sign-ins at other providers (`ext…`) have no RFC 8176 value and add none.
 */
export function rfc8176Amr(methods: readonly string[]): string[] {
  const out = new Set<string>();
  let factors = 0;
  for (const method of methods) {
    if (method === "passkey" || method === "security_key") {
      out.add("hwk");
      out.add("user");
      factors++;
    } else if (method === "otp" || method === "totp") {
      out.add("otp");
      factors++;
    } else if (method === "pwd") {
      out.add("pwd");
      factors++;
    }
  }
  if (factors >= 2) out.add("mfa");
  return [...out];
}

/** The ID token's `acr`: phishing-resistant when a passkey was used, else multi- or single-factor. */
export function acrOf(methods: readonly string[]): string {
  const amr = rfc8176Amr(methods);
  if (amr.includes("hwk")) return ACR.phishingResistant;
  return amr.includes("mfa") ? ACR.multiFactor : ACR.singleFactor;
}

export const ACR = {
  phishingResistant: "urn:sesame:acr:phr",
  multiFactor: "urn:sesame:acr:mfa",
  singleFactor: "urn:sesame:acr:sfa",
} as const;
