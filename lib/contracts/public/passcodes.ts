import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import type { PasscodeInfo } from "@/lib/passcodes";
import { PlatformError, platformErrors } from "../schemas";
import { jsonResponse, publicRoute } from "./common";

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: PlatformError } },
});

/** The headers a response that starts a session carries (Hanko's). */
export const SessionResponseHeaders = z.object({
  "X-Session-Lifetime": z.string().meta({ description: "The session's lifetime in seconds" }),
  "X-Session-Retention": z
    .enum(["persistent", "session"])
    .meta({ description: "`session`: the cookie has no Max-Age" }),
  "X-Auth-Token": z
    .string()
    .optional()
    .meta({ description: "The session JWT, in cross-domain mode only (instead of the cookie)" }),
  "Set-Cookie": z
    .string()
    .optional()
    .meta({ description: "The session cookie (HttpOnly), unless in cross-domain mode" }),
});

export const Passcode = z
  .object({
    id: z.uuid().meta({ description: "The passcode's id, for finalize" }),
    ttl: z.number().int().meta({ description: "Lifetime in seconds (the tenant's passcode TTL)" }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Passcode", description: "Hanko's `PasscodeReturn`" });

/** Hanko's `PasscodeReturn`: the lifetime in seconds. */
export function passcodeWire({ id, createdAt, expiresAt }: PasscodeInfo): z.input<typeof Passcode> {
  return {
    id,
    ttl: Math.round((expiresAt.getTime() - createdAt.getTime()) / 1000),
    created_at: createdAt.toISOString(),
  };
}

const passcode = {
  ...publicRoute,
  tags: ["Passcodes"] as string[],
  auth: { kind: "none" } as const,
  deprecated: { successor: "/t/{tenantId}/login" },
  rateLimit: "passcode",
  // Per IP only: a count per user would let a stranger use up the owner's allowance (docs/decisions.md,
  // Security, issue 25).
  rateLimitPerIpOnly: true,
};

export const passcodeInitialize = defineContract({
  ...passcode,
  method: "POST",
  path: "/t/{tenantId}/passcode/login/initialize",
  operationId: "passcodeLoginInitialize",
  summary: "Mail a login or verification code",
  description:
    "Mails a 6-digit code to the user's primary address, or to `email_id` (one of the user's addresses). " +
    "The code verifies an unverified address; an unverified address added to an account that has a " +
    "verified one needs that account's session. A new code replaces the previous one the same client " +
    "(IP) asked for and keeps its failed attempts: when they are used up (3), that client gets no new " +
    "code for the address until its last one expires (429); other clients' codes are not touched. " +
    "Deprecated: use the login flow.",
  body: z.object({
    user_id: z.uuid("must be a UUID").meta({ description: "The user to log in" }),
    email_id: z
      .uuid("must be a UUID")
      .optional()
      .meta({ description: "One of the user's addresses; default: the primary one" }),
  }),
  responses: {
    "200": jsonResponse("The code was mailed", Passcode),
    "400": error("Bad Request: invalid body, unknown user, or not one of the user's addresses"),
    "403": error("Forbidden: the session is another user's, or the address needs the user's session"),
    ...platformErrors(404, 413, 415, 500),
  },
});

export const passcodeFinalize = defineContract({
  ...passcode,
  method: "POST",
  path: "/t/{tenantId}/passcode/login/finalize",
  operationId: "passcodeLoginFinalize",
  summary: "Log in with a mailed code",
  description:
    'Checks the code and starts a session (`amr: ["otp"]`), as the session cookie or, in cross-domain ' +
    "mode, `X-Auth-Token`. The address the code went to becomes verified. Single use; expired after the " +
    "tenant's passcode TTL (408); a wrong code counts against the code (and its client's next codes for " +
    "the address), and the third ends it (410). " +
    "Deprecated: use the login flow.",
  body: z.object({
    id: z.uuid("must be a UUID").meta({ description: "The id from initialize" }),
    code: z
      .string()
      .regex(/^\d{6}$/, "must be the 6-digit code")
      .meta({ description: "The 6 digits from the mail" }),
  }),
  responses: {
    "200": { ...jsonResponse("Logged in", Passcode), headers: SessionResponseHeaders },
    "400": error("Bad Request: invalid body"),
    "401": error("Unauthorized: wrong code (attempts left in the message), unknown or already used"),
    "403": error("Forbidden: the session is another user's, or the address needs the user's session"),
    "408": error("Request Timeout: the code expired or a newer one replaced it"),
    "410": error("Gone: max attempts reached (3 wrong codes); ask for a new code once the last one expired"),
    ...platformErrors(404, 413, 415, 500),
  },
});
