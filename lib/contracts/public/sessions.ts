import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import type { SessionValidation as Validation } from "@/lib/sessions";
import type { UserProfile } from "@/lib/accounts";
import { longClaims, usernameWire, Username, type LongClaims } from "@/lib/wire/sessions";
import { platformErrors } from "../schemas";
import { jsonResponse, publicRoute } from "./common";
import { Email, emailWire } from "./emails";

export const SessionValidation = z
  .object({
    is_valid: z.boolean(),
    claims: z
      .object({
        subject: z.string(),
        session_id: z.string(),
        expiration: z.iso.datetime(),
        issued_at: z.iso.datetime(),
        audience: z.array(z.string()),
        issuer: z.string(),
        email: z
          .object({ address: z.string(), is_primary: z.boolean(), is_verified: z.boolean() })
          .optional(),
        username: z.string().optional(),
        amr: z.array(z.string()),
      })
      .optional(),
    expiration_time: z.iso.datetime().optional().meta({ description: "Deprecated: claims.expiration" }),
    user_id: z.string().optional().meta({ description: "Deprecated: claims.subject" }),
    idle_expires_at: z.iso.datetime().optional(),
  })
  .meta({ id: "SessionValidation" });

export const validateSessionGet = defineContract({
  ...publicRoute,
  method: "GET",
  path: "/t/{tenantId}/sessions/validate",
  operationId: "validateSession",
  summary: "Validate the caller's session",
  description:
    "Reads `Authorization: Bearer` or the session cookie. Always 200: `is_valid` says whether it is live.",
  tags: ["Sessions"],
  auth: { kind: "none" },
  responses: { "200": jsonResponse("The session's state", SessionValidation), ...platformErrors(404, 500) },
});

export const validateSessionPost = defineContract({
  ...publicRoute,
  method: "POST",
  path: "/t/{tenantId}/sessions/validate",
  operationId: "validateSessionToken",
  summary: "Validate a session token (for backends)",
  tags: ["Sessions"],
  auth: { kind: "none" },
  rateLimit: "session_validate",
  body: z.object({ session_token: z.string().min(1).max(8192) }),
  responses: {
    "200": jsonResponse("The session's state", SessionValidation),
    ...platformErrors(400, 404, 413, 415, 500),
  },
});

export { longClaims, usernameWire, Username, type LongClaims };

export const Profile = z
  .object({
    id: z.string().meta({ description: "Same as user_id (the deprecated getUser() reads it)" }),
    user_id: z.string(),
    emails: z.array(Email),
    username: Username.optional().meta({ description: "Absent when the user has none (as Hanko omits it)" }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    metadata: z
      .object({
        public_metadata: z.record(z.string(), z.unknown()).optional(),
        unsafe_metadata: z.record(z.string(), z.unknown()).optional(),
      })
      .optional()
      .meta({
        description:
          "The user's public metadata (set by the admin API) and unsafe metadata (the profile flow's " +
          "`patch_metadata`); private metadata is never shown. Absent when neither is set.",
      }),
    name: z.string().optional(),
    given_name: z.string().optional(),
    family_name: z.string().optional(),
    picture: z.string().optional(),
  })
  .meta({ id: "Profile" });

/** `GET /me` on the wire: Hanko's profile (`id` repeats `user_id` for the old SDK). */
export function profileWire({ user, emails, metadata }: UserProfile): z.input<typeof Profile> {
  const username = usernameWire(user);
  return {
    id: user.id,
    user_id: user.id,
    emails: emails.map(emailWire),
    ...(username ? { username } : {}),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    ...(Object.keys(metadata).length > 0 ? { metadata: { ...metadata } } : {}),
    ...(user.name ? { name: user.name } : {}),
    ...(user.givenName ? { given_name: user.givenName } : {}),
    ...(user.familyName ? { family_name: user.familyName } : {}),
    ...(user.picture ? { picture: user.picture } : {}),
  };
}

export const getMe = defineContract({
  ...publicRoute,
  method: "GET",
  path: "/t/{tenantId}/me",
  operationId: "getMe",
  summary: "The signed-in user",
  tags: ["Sessions"],
  auth: { kind: "session" },
  responses: { "200": jsonResponse("The user", Profile), ...platformErrors(401, 404, 500) },
});

export const deleteMe = defineContract({
  ...publicRoute,
  method: "DELETE",
  path: "/t/{tenantId}/me",
  operationId: "deleteMe",
  summary: "Delete the signed-in user's account",
  description: "Only when the tenant allows account deletion (403 otherwise). Ends every session; 204.",
  tags: ["Sessions"],
  auth: { kind: "session" },
  responses: { "204": { description: "Deleted" }, ...platformErrors(401, 403, 404, 500) },
});

const logout = {
  ...publicRoute,
  path: "/t/{tenantId}/logout",
  summary: "Log out",
  description: "Ends the session at once (its JWT stops validating) and clears the cookie. 204.",
  tags: ["Sessions"] as string[],
  auth: { kind: "session" } as const,
  responses: { "204": { description: "Logged out" }, ...platformErrors(401, 403, 404, 500) },
};

export const logoutPost = defineContract({ ...logout, method: "POST", operationId: "logout" as const });
export const logoutDelete = defineContract({
  ...logout,
  method: "DELETE",
  operationId: "logoutDelete" as const,
});

/** Hanko's `/sessions/validate` answer: claims under long names, always 200. */
export function sessionValidationWire(validation: Validation): z.input<typeof SessionValidation> {
  if (!validation.valid) return { is_valid: false };
  const claims = longClaims(validation.claims);
  return {
    is_valid: true,
    claims,
    expiration_time: claims.expiration,
    user_id: claims.subject,
    ...(validation.idleExpiresAt ? { idle_expires_at: validation.idleExpiresAt.toISOString() } : {}),
  };
}
