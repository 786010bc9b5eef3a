import { AppError } from "@/lib/errors";
import { transaction } from "@/lib/db";
import { UpdateTenantInput } from "@/lib/settings/schemas";
import { selectTenant, updateTenantRow } from "./store";
import { applySettingsPatch } from "./settings";
import type { Tenant } from "./tenant";
import { checkOriginsMatchRpId, parseSettings } from "./validate-settings";

/** Changes some settings of a tenant; everything is validated before anything is written. */
export async function updateTenant(tenantId: string, input: UpdateTenantInput): Promise<Tenant> {
  const patch = parseSettings(UpdateTenantInput, input);
  return transaction(async () => {
    const current = await selectTenant(tenantId);
    if (!current) throw new AppError("TENANT_NOT_FOUND", "Tenant not found");
    checkOriginsMatchRpId(patch.rpId ?? current.rpId, patch.origins ?? current.origins);
    const updated = await updateTenantRow(tenantId, {
      ...patch,
      ...applySettingsPatch(current, patch),
    });
    if (!updated) throw new AppError("TENANT_NOT_FOUND", "Tenant not found");
    return updated;
  });
}
