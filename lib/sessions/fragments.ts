import { getTableName, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { sessions } from "@/lib/db/schema";

/**
 * Whether the Sesame session named by another table's column is live (its row exists and has not
 * expired), as SQL for another module's statement: lib/openid finds the sessions that ended, by any path
 * (logout, revocation, lock, the user's deletion, expiry), without reading the sessions table itself.
 */
export function sessionIsLive(sessionId: AnyPgColumn): SQL<boolean> {
  const outer = sql`${sql.identifier(getTableName(sessionId.table))}.${sql.identifier(sessionId.name)}`;
  return sql<boolean>`exists (select 1 from ${sessions} s where s.id = ${outer} and s.expires_at > now())`;
}
