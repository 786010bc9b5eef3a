import { and, eq, getTableColumns, lt, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { oneTimeTokens, type OneTimeTokenRow } from "@/lib/db/schema";

export async function insertOneTimeToken(
  values: Omit<typeof oneTimeTokens.$inferInsert, "expiresAt"> & { ttlSeconds: number },
): Promise<OneTimeTokenRow> {
  const { ttlSeconds, ...rest } = values;
  const db = await executor();
  const [row] = await db
    .insert(oneTimeTokens)
    .values({ ...rest, expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})` })
    .returning();
  return row!;
}

/**
 * Takes the token out of the database in one statement, so of concurrent exchanges exactly one gets it;
 * `expired` is decided by the database clock. Another tenant's token is not found (and stays).
 */
export async function consumeOneTimeToken(
  tenantId: string,
  tokenHash: string,
): Promise<(OneTimeTokenRow & { expired: boolean }) | undefined> {
  const db = await executor();
  const [row] = await db
    .delete(oneTimeTokens)
    .where(and(eq(oneTimeTokens.tenantId, tenantId), eq(oneTimeTokens.tokenHash, tokenHash)))
    .returning({
      ...getTableColumns(oneTimeTokens),
      expired: sql<boolean>`${oneTimeTokens.expiresAt} <= now()`,
    });
  return row;
}

export async function sweepExpiredOneTimeTokens(): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(oneTimeTokens)
    .where(lt(oneTimeTokens.expiresAt, sql`now()`))
    .returning({ id: oneTimeTokens.id });
  return rows.length;
}
