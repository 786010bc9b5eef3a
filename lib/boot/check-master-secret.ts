import { seal, unseal } from "@/lib/crypto";
import { insertMetaIfAbsent, selectMeta } from "./store";

const META_KEY = "master_secret_check";
const PURPOSE = "master-secret-check";
const CANARY = "sesame";

/**
 * Makes sure this process's master secret is the one the database's sealed values were made with: the
 * first start stores a sealed canary, later starts (and other instances) must open it. Otherwise every
 * signing key would fail to decrypt at the first token, long after start-up.
 */
export async function checkMasterSecret(): Promise<void> {
  await insertMetaIfAbsent(META_KEY, { sealed: seal(CANARY, PURPOSE, META_KEY) });
  const sealed = ((await selectMeta(META_KEY)) as { sealed?: string } | undefined)?.sealed ?? "";
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
