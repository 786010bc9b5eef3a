import { AppError } from "@/lib/errors";
import { selectLockedAt, updateUserLock } from "./store";
import type { User } from "./user";

/** The user is locked by an operator: no session, no passkey or UAF ceremony completes for them. */
export class UserLocked extends AppError {
  constructor() {
    super("USER_LOCKED", "user is locked", {
      details: ["this account is locked; the site's support can unlock it"],
    });
  }
}

/** Sets or clears the platform user's lock (the caller audits it); undefined when there is no such user. */
export async function setUserLock(
  tenantId: string,
  userId: string,
  locked: boolean,
): Promise<User | undefined> {
  return updateUserLock(tenantId, userId, locked);
}

/**
 * Refuses a locked user (UserLocked); reads under a share lock on the row, so in a transaction a lock
 * being set waits until this one ends. A user that does not exist is left to the caller.
 */
export async function refuseLockedUser(tenantId: string, userId: string): Promise<void> {
  if (await selectLockedAt(tenantId, userId)) throw new UserLocked();
}
