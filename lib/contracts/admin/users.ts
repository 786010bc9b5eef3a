import { z } from "zod";
import { WebauthnCredential, credentialWire } from "@/lib/contracts/credentials";
import { EmailAddress } from "@/lib/emails/address";
import { defineContract } from "@/lib/contracts/contract";
import type { Credential } from "@/lib/credentials";
import type { EmailRow, IdentityRow } from "@/lib/db/schema";
import type { UserMetadata } from "@/lib/metadata";
import type { User } from "@/lib/users";
import { TenantIdParam, platformErrors } from "../schemas";
import { AdminEmail, adminEmailWire } from "./emails";
import { UUID, UserIdParam } from "./params";

const userParams = z.object({ tenantId: TenantIdParam, userId: UserIdParam });

const MetadataObject = z.record(z.string(), z.unknown());

/** Hanko's admin `Identity`: `provider_id` is the provider's id of the account, `provider_name` the provider. */
const AdminIdentity = z
  .object({
    id: z.uuid(),
    provider_id: z.string().meta({ description: "The provider's id of the account (`sub`, NameID)" }),
    provider_name: z.string().meta({
      description: "The provider: its slug (`google`, `custom-acme`) or the SAML identity provider's id",
    }),
    email_id: z
      .uuid()
      .optional()
      .meta({ description: "The user's address the provider asserted, when the user has it" }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "AdminIdentity" });

/** Hanko's admin `User`; empty parts are left out, as Go's `omitempty` does. */
export const AdminUserSchema = z
  .object({
    id: z.uuid(),
    webauthn_credentials: z.array(WebauthnCredential).optional(),
    emails: z.array(AdminEmail).optional(),
    username: z
      .object({
        id: z.uuid(),
        username: z.string(),
        created_at: z.iso.datetime(),
        updated_at: z.iso.datetime(),
      })
      .optional()
      .meta({ description: "Sesame keeps the username on the user: its id and times are the user's" }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    password: z
      .object({ id: z.uuid(), created_at: z.iso.datetime(), updated_at: z.iso.datetime() })
      .optional()
      .meta({ description: "When the user has a password; its id is the user's" }),
    identities: z
      .array(AdminIdentity)
      .optional()
      .meta({ description: "The user's accounts at third-party (OAuth 2.0 / OIDC) and SAML providers" }),
    otp: z
      .object({ id: z.uuid(), created_at: z.iso.datetime() })
      .optional()
      .meta({ description: "When the user set up an authenticator app; its id is the user's" }),
    metadata: z
      .object({
        public_metadata: MetadataObject.optional(),
        private_metadata: MetadataObject.optional(),
        unsafe_metadata: MetadataObject.optional(),
      })
      .optional(),
    given_name: z.string().optional(),
    family_name: z.string().optional(),
    name: z.string().optional(),
    picture: z.string().optional(),
  })
  .meta({ id: "AdminUser" });

const nonEmpty = <T>(items: T[]): T[] | undefined => (items.length > 0 ? items : undefined);
/**
 * Everything Hanko's admin `User` shows (built by lib/accounts `getAdminUser`) of a platform user: the user row (username and profile claims),
 * addresses, WebAuthn credentials, when the password and the authenticator app were set up, metadata,
 * identities at third-party and SAML providers.
 * The password and the OTP secret have no id of their own in Sesame: theirs is the user's id.
 */
export interface AdminUser {
  user: User;
  emails: EmailRow[];
  credentials: Credential[];
  password: { id: string; createdAt: Date; updatedAt: Date } | undefined;
  otp: { id: string; createdAt: Date } | undefined;
  metadata: UserMetadata;
  identities: IdentityRow[];
}

const omitUndefined = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as T;

/** The admin `User` on the wire (also the `data` of `user.*` webhook events). */
export function adminUserWire(admin: AdminUser): z.input<typeof AdminUserSchema> {
  const { user, emails, credentials, password, otp, metadata, identities } = admin;
  return omitUndefined({
    id: user.id,
    webauthn_credentials: nonEmpty(credentials.map(credentialWire)),
    emails: nonEmpty(emails.map(adminEmailWire)),
    username: user.username
      ? {
          id: user.id,
          username: user.username,
          created_at: user.createdAt.toISOString(),
          updated_at: user.updatedAt.toISOString(),
        }
      : undefined,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    password: password && {
      id: password.id,
      created_at: password.createdAt.toISOString(),
      updated_at: password.updatedAt.toISOString(),
    },
    identities: nonEmpty(
      identities.map((identity) =>
        omitUndefined({
          id: identity.id,
          provider_id: identity.subject,
          provider_name: identity.providerId,
          email_id: emails.find((email) => email.address === identity.email)?.id,
          created_at: identity.createdAt.toISOString(),
          updated_at: identity.updatedAt.toISOString(),
        }),
      ),
    ),
    otp: otp && { id: otp.id, created_at: otp.createdAt.toISOString() },
    metadata: Object.keys(metadata).length > 0 ? { ...metadata } : undefined,
    given_name: user.givenName ?? undefined,
    family_name: user.familyName ?? undefined,
    name: user.name ?? undefined,
    picture: user.picture ?? undefined,
  });
}

const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

const positiveInt = (fallback: number, max?: number) => {
  let schema = z.coerce.number().int().min(1);
  if (max !== undefined) schema = schema.max(max);
  return schema.default(fallback);
};

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
    page: positiveInt(1).meta({ description: "Page number, from 1" }),
    per_page: positiveInt(20, 100).meta({ description: "Users per page, 1 to 100" }),
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
    "200": {
      ...json("A page of users", z.array(AdminUserSchema)),
      headers: z.object({
        "X-Total-Count": z.number().int().meta({ description: "Users matching, over all pages" }),
        Link: z.string().meta({ description: "RFC 5988 links: first, prev, next, last" }),
      }),
    },
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
