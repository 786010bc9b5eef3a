import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import { platformErrors } from "../schemas";
import { jsonResponse, publicRoute } from "./common";

const Password = z.string().min(1, "is required").meta({
  description:
    "At least the tenant's minimum length (8 by default, see `/.well-known/config`) and at most 128 characters (Unicode code points, after NFKC normalisation)",
});

const UserId = z.uuid("must be a UUID").meta({ description: "The user's id" });

export const PasswordResult = z
  .object({ user_id: z.string().meta({ description: "The user's id" }) })
  .meta({ id: "PasswordResult" });

const passwordSet = {
  ...publicRoute,
  path: "/t/{tenantId}/password",
  tags: ["Passwords"] as string[],
  auth: { kind: "session" } as const,
  rateLimit: "password",
  responses: {
    "200": jsonResponse("The password was replaced", PasswordResult),
    "201": jsonResponse("The user's first password was set", PasswordResult),
    ...platformErrors(400, 401, 403, 404, 413, 415, 500),
  },
};

export const setPassword = defineContract({
  ...passwordSet,
  method: "POST",
  operationId: "setPassword",
  summary: "Set the signed-in user's password",
  description:
    "Only when the tenant enables passwords (404 otherwise). Sets the password (201) or replaces it (200); a new password ends a lockout. `user_id`, when sent, must be the signed-in user (403).",
  body: z.object({ user_id: UserId.optional(), password: Password }),
});

export const changePassword = defineContract({
  ...passwordSet,
  method: "PUT",
  operationId: "changePassword",
  summary: "Set or change the signed-in user's password (Hanko v2)",
  description:
    "Hanko 2.x's `PUT /password {user_id, password}`: like `POST /password`, `user_id` required. Deprecated: use the profile flow.",
  deprecated: { successor: "/t/{tenantId}/profile" },
  body: z.object({ user_id: UserId, password: Password }),
});

export const passwordLogin = defineContract({
  ...publicRoute,
  method: "POST",
  path: "/t/{tenantId}/password/login",
  operationId: "passwordLogin",
  summary: "Log in with a password",
  description:
    'Only when the tenant enables passwords (404 otherwise). Starts a session (`amr: ["pwd"]`): the session cookie, or `X-Auth-Token` in cross-domain mode, with `X-Session-Lifetime` and `X-Session-Retention`. An unknown user, a user without a password and a wrong password are the same 401. After 10 consecutive failures the password is locked (403, Retry-After) for a minute, twice as long after each further 10 (at most an hour), or until the user sets a new one. Deprecated: use the login flow.',
  tags: ["Passwords"],
  auth: { kind: "none" },
  rateLimit: "password",
  deprecated: { successor: "/t/{tenantId}/login" },
  body: z.object({ user_id: UserId, password: Password }),
  responses: {
    "200": jsonResponse("Logged in; the session comes in the headers", PasswordResult),
    ...platformErrors(400, 401, 403, 404, 413, 415, 500),
  },
});
