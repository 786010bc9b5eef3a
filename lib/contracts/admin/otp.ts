import { z } from "zod";
import type { OtpSecretRow } from "@/lib/db/schema";
import { defineContract } from "@/lib/contracts/contract";
import { TenantIdParam, platformErrors } from "../schemas";
import { UserIdParam } from "./params";

const userParams = z.object({ tenantId: TenantIdParam, userId: UserIdParam });

/** Hanko's admin `OTPDto`: never the secret. */
export const AdminOtp = z
  .object({
    id: z.uuid().meta({ description: "The secret's id: Sesame keeps one per user, so the user's id" }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "AdminOtp", description: "A user's authenticator app (TOTP secret), without the secret" });

/** A TOTP secret row on the admin wire (also the admin user's `otp`). */
export const adminOtpWire = (row: OtpSecretRow): z.input<typeof AdminOtp> => ({
  id: row.userId,
  created_at: row.createdAt.toISOString(),
});

const otp = {
  surface: "admin",
  auth: { kind: "admin-key" },
  loadsTenant: true,
  tags: ["OTP"] as string[],
  params: userParams,
  path: "/t/{tenantId}/admin/users/{userId}/otp",
} as const;

export const adminGetOtp = defineContract({
  ...otp,
  method: "GET",
  operationId: "adminGetOtp",
  summary: "A user's authenticator app",
  description: "404 when the user has none.",
  responses: {
    "200": { description: "The app", content: { "application/json": { schema: AdminOtp } } },
    ...platformErrors(400, 401, 404, 500),
  },
});

export const adminDeleteOtp = defineContract({
  ...otp,
  method: "DELETE",
  operationId: "adminDeleteOtp",
  summary: "Remove a user's authenticator app",
  description: "Its codes no longer complete a login. 404 when the user has none.",
  responses: { "204": { description: "Removed" }, ...platformErrors(400, 401, 404, 500) },
});
