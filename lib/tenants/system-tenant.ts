import { transaction } from "@/lib/db";
import { DEFAULT_SETTINGS } from "@/lib/settings/defaults";
import { applySettingsPatch } from "./settings";
import { createSigningKey } from "./signing-keys/create-signing-key";
import { insertSystemTenant, selectSystemTenant, updateSystemTenantParty } from "./store";
import type { Tenant } from "./tenant";

/**
 * The one hidden system tenant (`tenants.system`; the console's: its credentials are the operators'
 * passkeys, its audit log the operators' log), made on first use with its first signing key, and moved
 * to `party` (RP ID and origins) when those changed. selectTenant and listTenants never return it.
 */
export async function ensureSystemTenant(
  name: string,
  party: { rpId: string; origins: string[] },
): Promise<Tenant> {
  const row = await selectSystemTenant();
  if (row) {
    if (row.rpId === party.rpId && row.origins.join(" ") === party.origins.join(" ")) return row;
    return (await updateSystemTenantParty(row.id, party)) ?? row;
  }
  return transaction(async () => {
    const created = await insertSystemTenant({
      name,
      rpName: name,
      ...party,
      ...applySettingsPatch(DEFAULT_SETTINGS, {}),
    });
    if (!created) return (await selectSystemTenant())!;
    await createSigningKey(created.id, created.signingAlgorithm, { active: true });
    return created;
  });
}
