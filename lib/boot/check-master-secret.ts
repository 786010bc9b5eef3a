import { eq } from "drizzle-orm";
import { seal, unseal } from "@/lib/crypto";
import { executor } from "@/lib/db";
import { sesameMeta } from "@/lib/db/schema";

const META_KEY = "master_secret_check";
const PURPOSE = "master-secret-check";
const CANARY = "sesame";

/**
 * Makes sure this process's master secret is the one the database's sealed values were made with: the
 * first start stores a sealed canary, later starts (and other instances) must open it. Otherwise every
 * signing key would fail to decrypt at the first token, long after start-up.
 */
export async function checkMasterSecret(): Promise<void> {
  const db = await executor();
  await db
    .insert(sesameMeta)
    .values({ key: META_KEY, value: { sealed: seal(CANARY, PURPOSE, META_KEY) } })
    .onConflictDoNothing();
  const [row] = await db.select().from(sesameMeta).where(eq(sesameMeta.key, META_KEY)).limit(1);
  const sealed = (row?.value as { sealed?: string } | undefined)?.sealed ?? "";
  let opened: string | undefined;
  try {
    opened = unseal(sealed, PURPOSE, META_KEY);
  } catch {
    opened = undefined;
  }
  if (opened !== CANARY) {
    throw new Error(
      "The master secret does not match the one this database was set up with. Every instance that shares " +
        "a database needs the same SESAME_MASTER_SECRET (or the same <data dir>/master.key).",
    );
  }
}
