import type { Tenant } from "@/lib/tenants";
import { checkSessionToken } from "./sessions";

/** Hanko's `/sessions/validate` answer: claims under long names, always 200. */
export type SessionValidation =
  | { is_valid: false }
  | {
      is_valid: true;
      claims: Record<string, unknown> & {
        subject: string;
        session_id: string;
        expiration: string;
        issued_at: string;
        audience: string[];
        issuer: string;
      };
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
  const { sub, session_id, exp, iat, aud, iss, email, username, amr } = valid.claims;
  const expiration = new Date(exp * 1000).toISOString();
  const idle = tenant.platform.session.idleTimeoutSeconds;
  return {
    is_valid: true,
    claims: {
      subject: sub,
      session_id,
      expiration,
      issued_at: new Date(iat * 1000).toISOString(),
      audience: aud,
      issuer: iss,
      ...(email ? { email } : {}),
      ...(username ? { username } : {}),
      amr,
    },
    expiration_time: expiration,
    user_id: sub,
    ...(idle > 0
      ? { idle_expires_at: new Date(valid.session.lastUsedAt.getTime() + idle * 1000).toISOString() }
      : {}),
  };
}
