import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { passwords } from "@/lib/db/schema";

/**
 * An SQL condition, for another module's query: the user in `userId` has a password. Lets lib/users
 * filter and count in one query while the passwords table stays this module's.
 */
export function hasPasswordCondition(userId: AnyPgColumn): SQL {
  return sql`exists (select 1 from ${passwords} where ${passwords.userId} = ${userId})`;
}
