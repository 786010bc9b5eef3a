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
  createdAt: Date;
  updatedAt: Date;
}

export function toUser(row: UserRow): User {
  return { ...row };
}
