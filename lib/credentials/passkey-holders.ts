import { selectUsersWithPasskeys } from "./store";

/** How many ids one query asks about (bounded bind parameters). */
const CHUNK = 1000;

/**
 * Which of these users of the tenant have at least one passkey (not counting MFA-only security keys).
 * The console's passkey adoption asks this about the period's active users (lib/analytics).
 */
export async function usersWithPasskeys(tenantId: string, userIds: string[]): Promise<Set<string>> {
  const holders = new Set<string>();
  for (let i = 0; i < userIds.length; i += CHUNK) {
    for (const id of await selectUsersWithPasskeys(tenantId, userIds.slice(i, i + CHUNK))) holders.add(id);
  }
  return holders;
}
