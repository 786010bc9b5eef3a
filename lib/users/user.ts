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
