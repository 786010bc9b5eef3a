"use server";

import { revalidatePath } from "next/cache";
import { createApiKey } from "@/lib/api-keys";
import { recordAuditEvent } from "@/lib/audit";
import { auditConsoleAction, consoleAction } from "@/lib/console/guard";
import { CreateTenantInput, createTenant } from "@/lib/tenants";
import { withTenantFieldErrors } from "../tenant-field-errors";

/** The API keys a tenant made in the wizard starts with: one per server-side API a first app calls. */
const FIRST_KEYS = [
  { name: "Backend (admin API)", scopes: ["admin" as const] },
  { name: "Passkey API", scopes: ["passkey" as const] },
];

/**
 * Creates a tenant (owner only: admins are scoped to the tenants granted to them). Validated with the
 * schema of `tenant create` (CreateTenantInput); a signing key comes with it, and the API keys of
 * FIRST_KEYS, whose secrets are in this answer once (the wizard's "next steps" panel) and nowhere else.
 */
export async function createTenantAction(input: unknown) {
  return consoleAction("owner", undefined, async (session) => {
    CreateTenantInput.parse(input);
    const tenant = await withTenantFieldErrors(() => createTenant(input as CreateTenantInput));
    await auditConsoleAction(session, tenant.id, "tenant.created", { name: tenant.name });
    const keys = [];
    for (const first of FIRST_KEYS) {
      const { key, secret } = await createApiKey(tenant.id, first);
      await recordAuditEvent(tenant.id, {
        ...session.context,
        type: "api_key.created",
        details: { keyId: key.id, scopes: key.scopes },
      });
      keys.push({ id: key.id, name: key.name, prefix: key.prefix, scopes: key.scopes, secret });
    }
    revalidatePath("/console/tenants");
    return { id: tenant.id, name: tenant.name, keys };
  });
}

/** One step of the wizard: the fields so far against the same schema, nothing written. */
export async function checkTenantAction(input: unknown) {
  return consoleAction("owner", undefined, async () => {
    CreateTenantInput.parse(input);
  });
}
