import { z } from "zod";
import type { PasswordRow } from "@/lib/db/schema";
import { defineContract } from "@/lib/contracts/contract";
import { PlatformError, TenantIdParam, platformErrors } from "../schemas";
import { UserIdParam } from "./params";

const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

const userParams = z.object({ tenantId: TenantIdParam, userId: UserIdParam });

/** Hanko's admin `PasswordCredential`: never the hash. */
export const AdminPassword = z
  .object({
    id: z
      .uuid()
      .meta({ description: "The password's id: Sesame keeps one password per user, so the user's id" }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({
    id: "AdminPassword",
    description: "A user's password, without the hash (Hanko's `PasswordCredential`)",
  });

/** A password row on the admin wire (also the admin user's `password`). */
export const adminPasswordWire = (row: PasswordRow): z.input<typeof AdminPassword> => ({
  id: row.userId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const passwords = {
  surface: "admin",
  auth: { kind: "admin-key" },
  loadsTenant: true,
  tags: ["Passwords"] as string[],
  params: userParams,
} as const;

const PasswordBody = z.object({
  password: z.string().min(1, "is required").meta({
    description: "The new password: the tenant's minimum length (at least 8), at most 128 characters",
  }),
});

export const adminGetPassword = defineContract({
  ...passwords,
  method: "GET",
  path: "/t/{tenantId}/admin/users/{userId}/password",
  operationId: "adminGetPassword",
  summary: "Whether a user has a password",
  description: "404 when the user has none.",
  responses: { "200": json("The password", AdminPassword), ...platformErrors(400, 401, 404, 500) },
});

export const adminCreatePassword = defineContract({
  ...passwords,
  method: "POST",
  path: "/t/{tenantId}/admin/users/{userId}/password",
  operationId: "adminCreatePassword",
  summary: "Give a user a password",
  description:
    "200 as Hanko. A user who already has one is 409 (use PUT). The tenant's length rules apply (400); " +
    "a tenant without passwords is 404.",
  body: PasswordBody,
  responses: {
    "200": json("The password", AdminPassword),
    "409": json("Conflict: the user already has a password", PlatformError),
    ...platformErrors(400, 401, 404, 413, 415, 500),
  },
});

export const adminUpdatePassword = defineContract({
  ...passwords,
  method: "PUT",
  path: "/t/{tenantId}/admin/users/{userId}/password",
  operationId: "adminUpdatePassword",
  summary: "Replace a user's password",
  description:
    "A user without a password is 404 (use POST). The tenant's length rules apply (400). The password's " +
    "failure count and lock are cleared, and the user's sessions end (as every password change does).",
  body: PasswordBody,
  responses: { "200": json("The password", AdminPassword), ...platformErrors(400, 401, 404, 413, 415, 500) },
});

export const adminDeletePassword = defineContract({
  ...passwords,
  method: "DELETE",
  path: "/t/{tenantId}/admin/users/{userId}/password",
  operationId: "adminDeletePassword",
  summary: "Remove a user's password",
  description: "404 when the user has none.",
  responses: { "204": { description: "Removed" }, ...platformErrors(400, 401, 404, 500) },
});
