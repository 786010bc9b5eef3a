import { z } from "zod";
import type { Credential } from "@/lib/credentials";
import type { EmailRow, IdentityRow } from "@/lib/db/schema";
import type { UserMetadata } from "@/lib/metadata";
import type { User } from "@/lib/users";
import { WebauthnCredential, credentialWire } from "./credentials";
import { AdminEmail, adminEmailWire } from "./emails";

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
