import { eq } from "drizzle-orm";
import { executor } from "@/lib/db";
import { sesameMeta } from "@/lib/db/schema";

/*
 * lib/boot owns `sesame_meta`: the instance-wide markers start-up reads and writes (the master secret's
 * canary, the demo tenant's seeding).
 */

/** Inserts the marker `key` with `value` unless it exists; true when this call inserted it. */
export async function insertMetaIfAbsent(key: string, value: Record<string, unknown>): Promise<boolean> {
  const db = await executor();
  const rows = await db.insert(sesameMeta).values({ key, value }).onConflictDoNothing().returning();
  return rows.length > 0;
}

/** The marker's value, undefined when there is none. */
export async function selectMeta(key: string): Promise<unknown> {
  const db = await executor();
  const [row] = await db.select().from(sesameMeta).where(eq(sesameMeta.key, key)).limit(1);
  return row?.value;
}

export async function updateMeta(key: string, value: Record<string, unknown>): Promise<void> {
  const db = await executor();
  await db.update(sesameMeta).set({ value }).where(eq(sesameMeta.key, key));
}
