import { and, eq, isNull, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { users } from "@/lib/db/schema";
import { findEmailByAddress } from "@/lib/emails";
import { findUser } from "./store";
import { toUser, type User } from "./user";

/** The user holding the address (lower-cased) in the tenant, verified or not. */
export async function findUserByEmail(tenantId: string, address: string): Promise<User | undefined> {
  const email = await findEmailByAddress(tenantId, address.toLowerCase());
  return email ? findUser(tenantId, email.userId) : undefined;
}

/** The platform user (no external id) with this username, compared case-insensitively. */
export async function findUserByUsername(tenantId: string, username: string): Promise<User | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        isNull(users.externalId),
        sql`lower(${users.username}) = lower(${username})`,
      ),
    )
    .limit(1);
  return row ? toUser(row) : undefined;
}

/** Usernames of platform users: letters, digits, `_`, `-` and `.`, starting with a letter or digit. */
export const USERNAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}_.-]*$/u;
