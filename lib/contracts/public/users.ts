import { z } from "zod";
import { EmailAddress } from "@/lib/emails/address";
import { defineContract } from "@/lib/contracts/contract";
import type { UserWithCredentials } from "@/lib/accounts";
import { WebauthnCredential, credentialWire } from "@/lib/wire/credentials";
import { PlatformError, platformErrors } from "../schemas";
import { jsonResponse, publicRoute, tenantParams } from "./common";
import { SessionResponseHeaders } from "./passcodes";

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: PlatformError } },
});

export const CreatedUser = z
  .object({
    id: z.uuid().meta({ description: "Deprecated: user_id" }),
    user_id: z.uuid(),
    email_id: z.uuid().meta({ description: "The primary address, for passcode initialize" }),
  })
  .meta({ id: "CreatedUser", description: "Hanko's `CreateUserResponse`" });

export const signUp = defineContract({
  ...publicRoute,
  method: "POST",
  path: "/t/{tenantId}/users",
  operationId: "createUser",
  summary: "Sign up with an email address",
  description:
    "Only when the tenant allows sign-up (403). Creates a user whose primary address is unverified. " +
    "When the tenant requires verification (default), verify it with `POST /passcode/login/initialize` " +
    "(`user_id`, `email_id`) and finalize, which logs the user in; otherwise the response starts a " +
    "session at once. Signing up again with the address of a sign-up that never finished answers that " +
    "same user. Deprecated: use the registration flow.",
  tags: ["Users"],
  auth: { kind: "none" },
  deprecated: { successor: "/t/{tenantId}/registration" },
  rateLimit: "signup",
  body: z.object({ email: EmailAddress.meta({ description: "The address (lower-cased)" }) }),
  responses: {
    "200": {
      ...jsonResponse("The user (logged in when verification is off)", CreatedUser),
      headers: SessionResponseHeaders.partial(),
    },
    "403": error("Forbidden: sign-up is disabled"),
    "409": error("Conflict: a user with this address exists"),
    ...platformErrors(400, 404, 413, 415, 500),
  },
});

export const PublicUser = z
  .object({
    id: z.uuid(),
    email: z.string().optional().meta({ description: "The primary address" }),
    username: z.string().optional(),
    webauthn_credentials: z.array(WebauthnCredential),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "User", description: "Hanko's `GetUserResponse`" });

/** `GET /users/{id}` on the wire (Hanko's `GetUserResponse`). */
export function publicUserWire({
  user,
  primaryEmail,
  credentials,
}: UserWithCredentials): z.input<typeof PublicUser> {
  return {
    id: user.id,
    ...(primaryEmail ? { email: primaryEmail.address } : {}),
    ...(user.username ? { username: user.username } : {}),
    webauthn_credentials: credentials.map(credentialWire),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

export const getUser = defineContract({
  ...publicRoute,
  method: "GET",
  path: "/t/{tenantId}/users/{userId}",
  operationId: "getUser",
  summary: "The signed-in user, by id",
  description: "Only the session's own user (403 for any other id). Deprecated: use `GET /me`.",
  tags: ["Users"],
  auth: { kind: "session" },
  deprecated: { successor: "/t/{tenantId}/me" },
  params: tenantParams.extend({ userId: z.uuid("must be a UUID").meta({ description: "The user's id" }) }),
  responses: {
    "200": jsonResponse("The user", PublicUser),
    "403": error("Forbidden: not the session's user"),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const UserInfo = z
  .object({
    id: z.uuid().meta({ description: "The user's id" }),
    email_id: z.uuid(),
    verified: z.boolean(),
    has_webauthn_credential: z.boolean().meta({ description: "Whether the user has a passkey" }),
  })
  .meta({ id: "UserInfo", description: "Hanko's `UserInfoResponse`" });

export const lookupUser = defineContract({
  ...publicRoute,
  method: "POST",
  path: "/t/{tenantId}/user",
  operationId: "getUserIdByEmail",
  summary: "Find the user of an email address",
  description:
    "Tells whether an address has an account, as Hanko 2.x does (and as sign-up's 409 does where " +
    "sign-up is open); an unverified address does not count while the tenant requires verification. " +
    "Tenants that must not reveal accounts use API version 3, which removes this endpoint. " +
    "Deprecated: use the login flow.",
  tags: ["Users"],
  auth: { kind: "none" },
  deprecated: { successor: "/t/{tenantId}/login" },
  rateLimit: "user_lookup",
  body: z.object({ email: EmailAddress.meta({ description: "The address" }) }),
  responses: {
    "200": jsonResponse("The user of the address", UserInfo),
    "404": error("Not Found: no user has this address (or the tenant is unknown)"),
    ...platformErrors(400, 413, 415, 500),
  },
});

export const deleteUser = defineContract({
  ...publicRoute,
  method: "DELETE",
  path: "/t/{tenantId}/user",
  operationId: "deleteUser",
  summary: "Delete the signed-in user's account",
  description:
    "As `DELETE /me`: only when the tenant allows account deletion (403). Ends every session and clears the cookie. Deprecated: use the profile flow.",
  tags: ["Users"],
  auth: { kind: "session" },
  deprecated: { successor: "/t/{tenantId}/profile" },
  responses: { "204": { description: "Deleted" }, ...platformErrors(401, 403, 404, 500) },
});
