import { z } from "zod";
import type { CreatedEmail } from "@/lib/accounts";
import { EmailAddress } from "@/lib/emails/address";
import { defineContract } from "@/lib/contracts/contract";
import { Email, emailWire } from "@/lib/wire/emails";
import { PlatformError, platformErrors } from "../schemas";
import { jsonResponse, publicRoute, tenantParams } from "./common";
import { Passcode, passcodeWire } from "./passcodes";

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: PlatformError } },
});

export { Email, emailWire };

export const CreatedEmailResponse = Email.extend({
  passcode: Passcode.optional().meta({ description: "The verification code mailed, if one was" }),
}).meta({ id: "CreatedEmail" });

/** `POST /emails` on the wire: the address, and the verification code mailed, if one was. */
export const createdEmailWire = ({
  email,
  passcode,
}: CreatedEmail): z.input<typeof CreatedEmailResponse> => ({
  ...emailWire(email),
  ...(passcode ? { passcode: passcodeWire(passcode) } : {}),
});

const emailParams = tenantParams.extend({
  emailId: z.uuid("must be a UUID").meta({ description: "The address's id" }),
});

const emails = {
  ...publicRoute,
  tags: ["Emails"] as string[],
  auth: { kind: "session" } as const,
};

export const listEmails = defineContract({
  ...emails,
  method: "GET",
  path: "/t/{tenantId}/emails",
  operationId: "listEmails",
  summary: "The signed-in user's addresses",
  description: "Oldest first. Deprecated: `GET /me` lists them, the profile flow manages them.",
  deprecated: { successor: "/t/{tenantId}/profile" },
  responses: { "200": jsonResponse("The addresses", z.array(Email)), ...platformErrors(401, 404, 500) },
});

export const createEmail = defineContract({
  ...emails,
  method: "POST",
  path: "/t/{tenantId}/emails",
  operationId: "createEmail",
  // Each new address mails a verification code: limited like the passcode endpoints.
  rateLimit: "passcode",
  summary: "Add an address",
  description:
    "Adds an unverified address, up to the tenant's maximum per user. When the tenant requires " +
    "verification, a code is mailed at once and `passcode` names it: finalize it with " +
    "`POST /passcode/login/finalize` and this session. An address another user holds is 409, unless it " +
    "is only their unverified, non-primary claim (then it moves here). Deprecated: use the profile flow.",
  deprecated: { successor: "/t/{tenantId}/profile" },
  body: z.object({ address: EmailAddress.meta({ description: "The address (lower-cased)" }) }),
  responses: {
    "200": jsonResponse("The new address", CreatedEmailResponse),
    "409": error("Conflict: the address is taken, or the user has the maximum number of addresses"),
    ...platformErrors(400, 401, 403, 404, 413, 415, 500),
  },
});

const setPrimary = {
  ...emails,
  path: "/t/{tenantId}/emails/{emailId}/set_primary",
  summary: "Make an address the primary one",
  params: emailParams,
  responses: {
    "204": { description: "It is the primary address (also when it was already)" },
    "409": error("Conflict: the address is unverified and the tenant requires verification"),
    ...platformErrors(400, 401, 403, 404, 500),
  },
};

export const setPrimaryEmail = defineContract({
  ...setPrimary,
  method: "PUT",
  operationId: "setPrimaryEmail",
  description:
    "The primary address is the JWT's `email` claim and where login codes go. Another user's address is 404.",
});

export const setPrimaryEmailPost = defineContract({
  ...setPrimary,
  method: "POST",
  operationId: "setPrimaryEmailPost",
  description: "The deprecated spelling of `PUT /emails/{emailId}/set_primary`.",
  deprecated: { successor: "/t/{tenantId}/profile" },
});

export const deleteEmail = defineContract({
  ...emails,
  method: "DELETE",
  path: "/t/{tenantId}/emails/{emailId}",
  operationId: "deleteEmail",
  summary: "Remove an address",
  description:
    "Never the primary address, so never the last one (409). Another user's address is 404. Deprecated: use the profile flow.",
  deprecated: { successor: "/t/{tenantId}/profile" },
  params: emailParams,
  responses: {
    "204": { description: "Removed" },
    "409": error("Conflict: the primary (or last) address"),
    ...platformErrors(400, 401, 403, 404, 500),
  },
});
