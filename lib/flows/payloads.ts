import { credentialWire } from "@/lib/wire/credentials";
import { emailWire } from "@/lib/wire/emails";
import { longClaims, usernameWire, type LongClaims } from "@/lib/wire/sessions";
import { loadUserParts } from "@/lib/accounts";
import type { IssuedSession } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import { listEnabledProviders } from "@/lib/thirdparty";
import { flowIdentities } from "./shared/identities";

/** Hanko's flow `User`: what `<hanko-profile>` renders and `success` carries. */
export async function flowUser(tenant: Tenant, user: User) {
  const { emails, credentials, hasOtpSecret: otp, identities } = await loadUserParts(tenant.id, user.id);
  const shown =
    identities.length === 0
      ? []
      : await flowIdentities(tenant.id, identities, await listEnabledProviders(tenant.id));
  const securityKeys = credentials.filter((row) => row.isMfa);
  const username = usernameWire(user);
  return {
    user_id: user.id,
    passkeys: credentials.filter((row) => !row.isMfa).map(credentialWire),
    security_keys: securityKeys.map(credentialWire),
    mfa_config: {
      auth_app_set_up: otp,
      totp_enabled: tenant.platform.mfa.enabled && tenant.platform.mfa.totp,
      security_keys_enabled: tenant.platform.mfa.enabled && tenant.platform.mfa.securityKeys,
    },
    emails: emails.map(emailWire),
    ...(username ? { username } : {}),
    // Left out when empty, as Hanko's `omitempty`.
    ...(shown.length > 0 ? { identities: shown } : {}),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

export type LoginMethod = "password" | "passkey" | "passcode" | "third_party";
export type MfaMethod = "totp" | "security_key";

export interface LastLogin {
  login_method: LoginMethod;
  mfa_method?: MfaMethod;
}

/** The `success` payload: the user, the session's claims (long names, `expiration` RFC 3339), how. */
export async function successPayload(
  tenant: Tenant,
  user: User,
  issued: IssuedSession,
  lastLogin: LastLogin | undefined,
): Promise<{ user: Awaited<ReturnType<typeof flowUser>>; claims: LongClaims; last_login?: LastLogin }> {
  return {
    user: await flowUser(tenant, user),
    claims: longClaims(issued.claims),
    ...(lastLogin ? { last_login: lastLogin } : {}),
  };
}
