import { z } from "zod";
import { EmailAddress } from "@/lib/emails/address";
import { defineContract } from "@/lib/contracts/contract";
import { AdminUserSchema, adminUserWire, type AdminUser } from "@/lib/wire/admin-user";
import { TenantIdParam, platformErrors } from "../schemas";
import { pageQuery, pageResponse } from "./pagination";
import { UUID, UserIdParam } from "./params";

export { AdminUserSchema, adminUserWire, type AdminUser };

const userParams = z.object({ tenantId: TenantIdParam, userId: UserIdParam });

const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

export const listUsers = defineContract({
  surface: "admin",
  method: "GET",
  path: "/t/{tenantId}/admin/users",
  operationId: "listUsers",
  summary: "List users",
  description:
    "The tenant's platform users (Passkey API users, who have an external id, are not listed), newest " +
    "first by default. `email` and `username` match parts of an address or username, case-insensitively " +
    "(with both, either may match); `user_id` takes comma-separated UUIDs. Headers: `X-Total-Count` (all " +
    "matches) and an RFC 5988 `Link` with `first`, `prev`, `next` and `last` pages.",
  tags: ["Users"],
  auth: { kind: "admin-key" },
  loadsTenant: true,
  params: z.object({ tenantId: TenantIdParam }),
  query: z.object({
    ...pageQuery("Users"),
    user_id: z
      .string()
      .transform((value) => value.split(",").map((id) => id.trim().toLowerCase()))
      .pipe(z.array(z.string().regex(UUID, "must be comma-separated UUIDs")).max(100))
      .optional()
      .meta({ description: "Only these users: comma-separated UUIDs" }),
    email: z.string().max(254).optional().meta({ description: "Part of an address" }),
    username: z.string().max(255).optional().meta({ description: "Part of a username" }),
    sort_direction: z.enum(["asc", "desc"]).default("desc"),
  }),
  responses: {
    "200": pageResponse("A page of users", AdminUserSchema, "Users matching, over all pages"),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const CreateUserBody = z
  .object({
    id: z.uuidv4().optional().meta({ description: "The new user's id (a UUID v4); generated when left out" }),
    emails: z
      .array(
        z.object({
          address: EmailAddress,
          is_primary: z.boolean().default(false),
          is_verified: z.boolean().default(false),
        }),
      )
      .max(100)
      .default([]),
    username: z.string().max(255).nullable().optional(),
    created_at: z.iso.datetime({ offset: true }).optional(),
  })
  .meta({ id: "AdminCreateUser" });

export const createUser = defineContract({
  surface: "admin",
  method: "POST",
  path: "/t/{tenantId}/admin/users",
  operationId: "createUser",
  summary: "Create a user",
  description:
    "At least one of `emails` and `username`; exactly one address `is_primary` when addresses are given " +
    "(400 otherwise). A taken id, address or username is 409 and nothing is created. Answers 200 with " +
    "the user, as Hanko does.",
  tags: ["Users"],
  auth: { kind: "admin-key" },
  loadsTenant: true,
  params: z.object({ tenantId: TenantIdParam }),
  body: CreateUserBody,
  responses: {
    "200": json("The new user", AdminUserSchema),
    ...platformErrors(400, 401, 404, 409, 413, 415, 500),
  },
});

export const getUser = defineContract({
  surface: "admin",
  method: "GET",
  path: "/t/{tenantId}/admin/users/{userId}",
  operationId: "getUser",
  summary: "Get a user",
  tags: ["Users"],
  auth: { kind: "admin-key" },
  loadsTenant: true,
  params: userParams,
  responses: { "200": json("The user", AdminUserSchema), ...platformErrors(400, 401, 404, 500) },
});

const clearable = (schema: z.ZodString) =>
  z.string().trim().min(1, "must be a non-empty string or null").pipe(schema).nullable().optional();

const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be an http(s) URL");

export const UpdateUserBody = z
  .object({
    username: clearable(z.string().max(255)),
    name: clearable(z.string().max(255)),
    given_name: clearable(z.string().max(255)),
    family_name: clearable(z.string().max(255)),
    picture: z
      .string()
      .trim()
      .min(1, "must be a non-empty string or null")
      .pipe(httpUrl)
      .nullable()
      .optional(),
  })
  .meta({ id: "AdminUpdateUser" });

export const updateUser = defineContract({
  surface: "admin",
  method: "PATCH",
  path: "/t/{tenantId}/admin/users/{userId}",
  operationId: "updateUser",
  summary: "Update a user",
  description:
    "Each field left out stays, a non-empty string sets it, `null` clears it. `picture` must be an " +
    "http(s) URL. An invalid username is 400, another user's 409.",
  tags: ["Users"],
  auth: { kind: "admin-key" },
  loadsTenant: true,
  params: userParams,
  body: UpdateUserBody,
  responses: {
    "200": json("The user", AdminUserSchema),
    ...platformErrors(400, 401, 404, 409, 413, 415, 500),
  },
});

export const deleteUser = defineContract({
  surface: "admin",
  method: "DELETE",
  path: "/t/{tenantId}/admin/users/{userId}",
  operationId: "deleteUser",
  summary: "Delete a user",
  description:
    "Deletes the user with everything of theirs (addresses, credentials, sessions, password, OTP secret, " +
    "UAF registrations, metadata) in one transaction. 204.",
  tags: ["Users"],
  auth: { kind: "admin-key" },
  loadsTenant: true,
  params: userParams,
  responses: { "204": { description: "Deleted" }, ...platformErrors(400, 401, 404, 500) },
});

const lockDescription = (locked: boolean) =>
  (locked
    ? "Locks the user: their sessions end at once and every sign-in is refused (403 `USER_LOCKED` on the " +
      "public and flow APIs, the hosted pages and the elements, Passkey API logins, UAF requests) until " +
      "they are unlocked. "
    : "Unlocks a locked user: they may sign in again. ") +
  "A Sesame extension (Hanko's admin API has no lock); the same operation as the console's. Setting the " +
  "state the user has changes nothing. Audited as `user.locked` / `user.unlocked`, sent as the webhook " +
  "`user.update`. No body; answers the admin User (which, as Hanko's, carries no lock field). An unknown " +
  "user, another tenant's or a Passkey API user is 404.";

export const lockUser = defineContract({
  surface: "admin",
  method: "POST",
  path: "/t/{tenantId}/admin/users/{userId}/lock",
  operationId: "lockUser",
  summary: "Lock a user",
  description: lockDescription(true),
  tags: ["Users"],
  auth: { kind: "admin-key" },
  loadsTenant: true,
  params: userParams,
  responses: { "200": json("The user", AdminUserSchema), ...platformErrors(400, 401, 404, 500) },
});

export const unlockUser = defineContract({
  surface: "admin",
  method: "POST",
  path: "/t/{tenantId}/admin/users/{userId}/unlock",
  operationId: "unlockUser",
  summary: "Unlock a user",
  description: lockDescription(false),
  tags: ["Users"],
  auth: { kind: "admin-key" },
  loadsTenant: true,
  params: userParams,
  responses: { "200": json("The user", AdminUserSchema), ...platformErrors(400, 401, 404, 500) },
});
