import { z } from "zod";
import type { SessionClaims } from "@/lib/sessions";
import type { User } from "@/lib/users";

/** Hanko's `Username`. Sesame keeps the username on the user: its id and times are the user's. */
export const Username = z
  .object({
    id: z.string(),
    username: z.string(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Username" });

/** Hanko's `Username` of a user who has one. */
export function usernameWire(user: User): z.input<typeof Username> | undefined {
  if (!user.username) return undefined;
  return {
    id: user.id,
    username: user.username,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

/** A session's claims under Hanko's long names (`/sessions/validate`, the flow API's `success`). */
export interface LongClaims extends Record<string, unknown> {
  subject: string;
  session_id: string;
  expiration: string;
  issued_at: string;
  audience: string[];
  issuer: string;
  email?: SessionClaims["email"];
  username?: SessionClaims["username"];
  amr: SessionClaims["amr"];
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
