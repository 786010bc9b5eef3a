import { z } from "zod";
import { EmailAddress } from "@/lib/emails/address";
import { defineContract } from "@/lib/contracts/contract";
import { AdminEmail, adminEmailWire } from "@/lib/wire/emails";
import { PlatformError, TenantIdParam, platformErrors } from "../schemas";
import { UserIdParam } from "./params";

const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

/** A user's id in an admin path: a UUID (400 otherwise), compared lower-cased. */
const userParams = z.object({ tenantId: TenantIdParam, userId: UserIdParam });
const emailParams = userParams.extend({
  emailId: z
    .uuid("must be a UUID")
    .transform((value) => value.toLowerCase())
    .meta({ description: "The address's id" }),
});

const emails = {
  surface: "admin",
  auth: { kind: "admin-key" },
  loadsTenant: true,
  tags: ["Emails"] as string[],
} as const;

export { AdminEmail, adminEmailWire };

export const adminListEmails = defineContract({
  ...emails,
  method: "GET",
  path: "/t/{tenantId}/admin/users/{userId}/emails",
  operationId: "adminListEmails",
  summary: "A user's addresses",
  description: "Oldest first. An unknown user, or another tenant's, is 404.",
  params: userParams,
  responses: { "200": json("The addresses", z.array(AdminEmail)), ...platformErrors(400, 401, 404, 500) },
});

export const adminCreateEmail = defineContract({
  ...emails,
  method: "POST",
  path: "/t/{tenantId}/admin/users/{userId}/emails",
  operationId: "adminCreateEmail",
  summary: "Add an address to a user",
  description:
    "Adds the address (lower-cased), verified when `is_verified`. It becomes primary when `is_primary` or " +
    "when the user has no primary address yet; a primary address must be verified when the tenant requires " +
    "verification (409). An address another user of the tenant holds (more than an unverified claim), or " +
    "the user already has, is 409, and so is one over the tenant's maximum per user. No code is mailed.",
  params: userParams,
  body: z.object({
    address: EmailAddress.meta({ description: "The address (lower-cased)" }),
    is_primary: z.boolean().default(false),
    is_verified: z.boolean().default(false),
  }),
  responses: {
    "201": json("The new address", AdminEmail),
    "409": json(
      "Conflict: the address is taken, the user has the maximum, or a primary is unverified",
      PlatformError,
    ),
    ...platformErrors(400, 401, 404, 413, 415, 500),
  },
});

export const adminGetEmail = defineContract({
  ...emails,
  method: "GET",
  path: "/t/{tenantId}/admin/users/{userId}/emails/{emailId}",
  operationId: "adminGetEmail",
  summary: "One of a user's addresses",
  description: "Another user's address is 404.",
  params: emailParams,
  responses: { "200": json("The address", AdminEmail), ...platformErrors(400, 401, 404, 500) },
});

export const adminDeleteEmail = defineContract({
  ...emails,
  method: "DELETE",
  path: "/t/{tenantId}/admin/users/{userId}/emails/{emailId}",
  operationId: "adminDeleteEmail",
  summary: "Remove one of a user's addresses",
  description:
    "Never the primary address, so never the last one (409, as Hanko): make another one primary first.",
  params: emailParams,
  responses: {
    "204": { description: "Removed" },
    "409": json("Conflict: the primary (or last) address", PlatformError),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const adminSetPrimaryEmail = defineContract({
  ...emails,
  method: "POST",
  path: "/t/{tenantId}/admin/users/{userId}/emails/{emailId}/set_primary",
  operationId: "adminSetPrimaryEmail",
  summary: "Make an address the user's primary one",
  description:
    "The primary address is the JWT's `email` claim and where login codes go. Already primary: 204 too. " +
    "An unverified address cannot become primary when the tenant requires verification (409).",
  params: emailParams,
  responses: {
    "204": { description: "It is the primary address" },
    "409": json("Conflict: the address is unverified and the tenant requires verification", PlatformError),
    ...platformErrors(400, 401, 404, 500),
  },
});
