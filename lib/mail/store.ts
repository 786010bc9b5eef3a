import { and, desc, eq, lt, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { mailOutbox, type MailOutboxRow } from "@/lib/db/schema";

export async function insertOutboxMail(values: typeof mailOutbox.$inferInsert): Promise<MailOutboxRow> {
  const db = await executor();
  const [row] = await db.insert(mailOutbox).values(values).returning();
  return row!;
}

/** Deletes the tenant's outbox mails older than `maxAgeSeconds`; returns how many went. */
export async function deleteOldOutboxMail(tenantId: string, maxAgeSeconds: number): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(mailOutbox)
    .where(
      and(
        eq(mailOutbox.tenantId, tenantId),
        lt(mailOutbox.createdAt, sql`now() - make_interval(secs => ${maxAgeSeconds})`),
      ),
    )
    .returning({ id: mailOutbox.id });
  return rows.length;
}

/** The tenant's outbox, newest first, optionally only the mails to one address. */
export async function selectOutboxMail(
  tenantId: string,
  options: { to?: string; limit: number },
): Promise<MailOutboxRow[]> {
  const db = await executor();
  return db
    .select()
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.tenantId, tenantId),
        options.to === undefined ? undefined : eq(mailOutbox.to, options.to),
      ),
    )
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(options.limit);
}
