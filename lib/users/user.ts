import type { SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { UserRow } from "@/lib/db/schema";

/** A tenant's user as the domain sees it. */
export interface User {
  id: string;
  tenantId: string;
  /** The relying party's own id for the user (Passkey API `user_id`). */
  externalId: string | null;
  username: string | null;
  displayName: string | null;
  icon: string | null;
  /** Profile claims (Hanko's `name`, `given_name`, `family_name`, `picture`), set through the admin API. */
  name: string | null;
  givenName: string | null;
  familyName: string | null;
  picture: string | null;
  /** When an operator locked the user (no sign-in on any surface); null when unlocked. */
  lockedAt: Date | null;
  /** The start of the user's last own session; null before the first sign-in. */
  lastSignInAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function toUser(row: UserRow): User {
  return { ...row };
}

export interface ExternalUserProfile {
  externalId: string;
  username: string;
  displayName: string;
  icon: string | null;
}

/** What the admin API may set when it creates a platform user. */
export interface NewAdminUser {
  id: string;
  username: string | null;
  createdAt?: Date;
}

/** A condition on a user's id, built by the owner of another table (an `exists` over its rows). */
export type UserCondition = (userId: AnyPgColumn) => SQL;

/** Which platform users a page of the admin list shows. */
export interface PlatformUserFilter {
  userIds?: string[];
  /** Part of a username (lower-case); with `address` too, either may match (Hanko's rule). */
  username?: string;
  /** The user holds a matching address (the condition comes from lib/emails). */
  address?: UserCondition;
  /** Further conditions every listed user meets (a passkey, a password: from their owners). */
  conditions?: UserCondition[];
}

export type UserProfileChanges = Partial<
  Pick<User, "username" | "name" | "givenName" | "familyName" | "picture">
>;
