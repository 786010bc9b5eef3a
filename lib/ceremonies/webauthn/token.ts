import { getConfig } from "@/lib/config";
import { signToken, type Tenant } from "@/lib/tenants";

/**
 * The JWT every finalize returns (Hanko's claims): `sub` = user_id, `aud` = [RP ID], `cred` = the
 * credential id, `trans` for transactions; `iat`, `exp` (tenant token lifetime) and `iss`.
 */
export function issueCeremonyToken(
  tenant: Tenant,
  claims: { userId: string; credentialId: string; transactionId?: string },
): Promise<string> {
  return signToken(
    tenant,
    {
      cred: claims.credentialId,
      ...(claims.transactionId === undefined ? {} : { trans: claims.transactionId }),
    },
    {
      subject: claims.userId,
      audience: [tenant.rpId],
      issuer: `${getConfig().baseUrl}/passkey/${tenant.id}`,
      expiresIn: tenant.tokenLifetimeSeconds,
    },
  );
}
