import { sql } from "drizzle-orm";
import { credentialsFromJson, userCredentialsJsonOf } from "@/lib/credentials/fragments";
import type { Credential } from "@/lib/credentials";
import { executor, rowsOf } from "@/lib/db";
import type { EmailRow } from "@/lib/db/schema";
import { emailsFromJson, userEmailsJsonOf } from "@/lib/emails/fragments";
import {
  identityListingsFromJson,
  userIdentityListingsJsonOf,
  type IdentityListing,
} from "@/lib/identities/fragments";
import { visibleMetadataFromJson, type UserMetadata } from "@/lib/metadata";
import { visibleMetadataJsonOf } from "@/lib/metadata/fragments";
import { hasOtpSecretOf } from "@/lib/mfa/fragments";

/** What a profile shows of a user beyond the user row: each owner's rows, read together. */
export interface UserParts {
  emails: EmailRow[];
  credentials: Credential[];
  hasOtpSecret: boolean;
  identities: IdentityListing[];
}

/**
 * The user's addresses, WebAuthn credentials, whether an authenticator app is set up, and identities, in
 * one statement built of each owner's subqueries (lib/emails, lib/credentials, lib/mfa, lib/identities
 * keep their tables): what the flow API's `success` payload and profile show.
 */
export async function loadUserParts(tenantId: string, userId: string): Promise<UserParts> {
  const db = await executor();
  const [row] = rowsOf<{ emails: unknown; credentials: unknown; otp: unknown; identities: unknown }>(
    await db.execute(sql`select ${userEmailsJsonOf(tenantId, userId)} as emails,
      ${userCredentialsJsonOf(tenantId, userId)} as credentials,
      ${hasOtpSecretOf(tenantId, userId)} as otp,
      ${userIdentityListingsJsonOf(tenantId, userId)} as identities`),
  );
  return {
    emails: emailsFromJson(row!.emails),
    credentials: credentialsFromJson(row!.credentials),
    hasOtpSecret: row!.otp === true || row!.otp === "t",
    identities: identityListingsFromJson(row!.identities),
  };
}

/** What `GET /me` shows beyond the user row: the addresses and the public and unsafe metadata. */
export interface ProfileParts {
  emails: EmailRow[];
  metadata: Pick<UserMetadata, "public_metadata" | "unsafe_metadata">;
}

/** The user's addresses and visible metadata in one statement (lib/emails and lib/metadata subqueries). */
export async function loadProfileParts(tenantId: string, userId: string): Promise<ProfileParts> {
  const db = await executor();
  const [row] = rowsOf<{ emails: unknown; metadata: unknown }>(
    await db.execute(sql`select ${userEmailsJsonOf(tenantId, userId)} as emails,
      ${visibleMetadataJsonOf(tenantId, userId)} as metadata`),
  );
  return { emails: emailsFromJson(row!.emails), metadata: visibleMetadataFromJson(row!.metadata) };
}
