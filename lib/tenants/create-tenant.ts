import { getConfig } from "@/lib/config";
import { transaction } from "@/lib/db";
import { DEFAULT_SETTINGS } from "@/lib/settings/defaults";
import { CreateTenantInput } from "@/lib/settings/schemas";
import { applySettingsPatch } from "./settings";
import { createSigningKey } from "./signing-keys/create-signing-key";
import { insertTenant } from "./store";
import type { Tenant } from "./tenant";
import { checkOriginsMatchRpId, parseSettings } from "./validate-settings";

/**
 * A new tenant with its first (active) signing key. Unset settings take their defaults (./defaults.ts);
 * the RP ID defaults to the host of the first origin, else of Sesame's base URL, and the origins to
 * Sesame's base URL when it lies on that RP ID.
 */
export async function createTenant(input: CreateTenantInput): Promise<Tenant> {
  const settings = parseSettings(CreateTenantInput, input);
  const base = new URL(getConfig().baseUrl);
  const rpId =
    settings.rpId ?? (settings.origins?.[0] ? new URL(settings.origins[0]).hostname : base.hostname);
  const baseOnRp = base.hostname === rpId || base.hostname.endsWith(`.${rpId}`);
  const origins = settings.origins ?? (baseOnRp ? [base.origin] : []);
  checkOriginsMatchRpId(rpId, origins);

  return transaction(async () => {
    const tenant = await insertTenant({
      ...settings,
      rpId,
      rpName: settings.rpName ?? settings.name,
      origins,
      ...applySettingsPatch(DEFAULT_SETTINGS, settings),
    });
    const key = await createSigningKey(tenant.id, tenant.signingAlgorithm, { active: true });
    return { ...tenant, activeSigningKeyId: key.id };
  });
}
