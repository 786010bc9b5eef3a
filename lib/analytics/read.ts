import { selectActiveUsers, selectDailyTotals, selectTotalsSince } from "./store";

/* The rollups as the console reads them (lib/console/analytics adds users and passkeys from their owners). */

/** The tenant's metric totals per UTC day over `from`…`to` (inclusive). */
export async function dailyTotals(tenantId: string, from: string, to: string) {
  return selectDailyTotals(tenantId, from, to);
}

/** The ids of the users active over `from`…`to` (inclusive UTC days). */
export async function activeUsers(tenantId: string, from: string, to: string): Promise<string[]> {
  return selectActiveUsers(tenantId, from, to);
}

/** Per tenant and metric, the totals since the UTC day `from`. */
export async function totalsSince(tenantIds: string[], from: string) {
  return selectTotalsSince(tenantIds, from);
}
