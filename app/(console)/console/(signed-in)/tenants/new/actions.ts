"use server";

import { revalidatePath } from "next/cache";
import { auditConsoleAction, consoleAction } from "@/lib/console/guard";
import { CreateTenantInput, createTenant } from "@/lib/tenants";
import { withTenantFieldErrors } from "../tenant-field-errors";

/**
 * Creates a tenant (owner only: admins are scoped to the tenants granted to them). Validated with the
 * schema of `tenant create` (CreateTenantInput); a signing key comes with it, API keys are made on the
 * tenant's keys page (shown once there).
 */
export async function createTenantAction(input: unknown) {
  return consoleAction("owner", undefined, async (session) => {
    CreateTenantInput.parse(input);
    const tenant = await withTenantFieldErrors(() => createTenant(input as CreateTenantInput));
    await auditConsoleAction(session, tenant.id, "tenant.created", { name: tenant.name });
    revalidatePath("/console/tenants");
    return { id: tenant.id };
  });
}

/** One step of the wizard: the fields so far against the same schema, nothing written. */
export async function checkTenantAction(input: unknown) {
  return consoleAction("owner", undefined, async () => {
    CreateTenantInput.parse(input);
  });
}
