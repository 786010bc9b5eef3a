import { deleteExpiredModels } from "./store";

/**
 * Deletes expired models of every tenant's OpenID Provider (codes, tokens, sessions, interactions past
 * their lifetime: refused anyway, the rows only take space), in batches; rows another instance's sweep
 * holds are skipped. Runs in the background of every instance (lib/boot). Returns how many went.
 */
export async function sweepExpiredOpenidModels(
  options: { batchSize?: number; maxBatches?: number } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 500;
  let deleted = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 100); batch++) {
    const count = await deleteExpiredModels(batchSize);
    deleted += count;
    if (count < batchSize) break;
  }
  return deleted;
}
