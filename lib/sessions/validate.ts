import type { Tenant } from "@/lib/tenants";
import { checkSessionToken, type SessionClaims } from "./sessions";

/** What `/sessions/validate` learns about a token: nothing, or its claims and idle deadline. */
export type SessionValidation =
  { valid: false } | { valid: true; claims: SessionClaims; idleExpiresAt: Date | undefined };

/** A token's validity within the tenant (signature, session row, idle timeout); never throws for a bad token. */
export async function validateSessionToken(
  tenant: Tenant,
  token: string | undefined,
): Promise<SessionValidation> {
  const valid = token ? await checkSessionToken(tenant, token) : undefined;
  if (!valid) return { valid: false };
  const idle = tenant.platform.session.idleTimeoutSeconds;
  return {
    valid: true,
    claims: valid.claims,
    idleExpiresAt: idle > 0 ? new Date(valid.session.lastUsedAt.getTime() + idle * 1000) : undefined,
  };
}
