import { selectUserByUsername } from "./store";
import type { User } from "./user";

/** The platform user (no external id) with this username, compared case-insensitively. */
export async function findUserByUsername(tenantId: string, username: string): Promise<User | undefined> {
  return selectUserByUsername(tenantId, username);
}

/** Usernames of platform users: letters, digits, `_`, `-` and `.`, starting with a letter or digit. */
export const USERNAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}_.-]*$/u;
