import type { Tenant } from "@/lib/tenants";
import { checkSessionToken, type SessionClaims } from "./sessions";

/** A session's claims under Hanko's long names (`/sessions/validate`, the flow API's `success`). */
export interface LongClaims extends Record<string, unknown> {
  subject: string;
  session_id: string;
  expiration: string;
  issued_at: string;
  audience: string[];
  issuer: string;
}

export function longClaims(claims: SessionClaims): LongClaims {
  const { sub, session_id, exp, iat, aud, iss, email, username, amr } = claims;
  return {
    subject: sub,
    session_id,
    expiration: new Date(exp * 1000).toISOString(),
    issued_at: new Date(iat * 1000).toISOString(),
    audience: aud,
    issuer: iss,
    ...(email ? { email } : {}),
    ...(username ? { username } : {}),
    amr,
  };
}

/** Hanko's `/sessions/validate` answer: claims under long names, always 200. */
export type SessionValidation =
  | { is_valid: false }
  | {
      is_valid: true;
      claims: LongClaims;
      expiration_time: string;
      user_id: string;
      idle_expires_at?: string;
    };

export async function validateSessionToken(
  tenant: Tenant,
  token: string | undefined,
): Promise<SessionValidation> {
  const valid = token ? await checkSessionToken(tenant, token) : undefined;
  if (!valid) return { is_valid: false };
  const claims = longClaims(valid.claims);
  const idle = tenant.platform.session.idleTimeoutSeconds;
  return {
    is_valid: true,
    claims,
    expiration_time: claims.expiration,
    user_id: claims.subject,
    ...(idle > 0
      ? { idle_expires_at: new Date(valid.session.lastUsedAt.getTime() + idle * 1000).toISOString() }
      : {}),
  };
}
