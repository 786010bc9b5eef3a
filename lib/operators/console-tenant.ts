import { and, eq } from "drizzle-orm";
import { getConfig } from "@/lib/config";
import { executor, transaction } from "@/lib/db";
import { tenants } from "@/lib/db/schema";
import { DEFAULT_SETTINGS } from "@/lib/settings/defaults";
import { applySettingsPatch } from "@/lib/tenants/settings";
import { createSigningKey } from "@/lib/tenants/signing-keys/create-signing-key";
import { toTenant, type Tenant } from "@/lib/tenants/tenant";

/** Where the console is served: the admin port when there is one (same host), else the base URL. */
export function consoleOrigin(): string {
  const config = getConfig();
  const base = new URL(config.baseUrl);
  if (config.adminPort === undefined) return base.origin;
  base.port = String(config.adminPort);
  return base.origin;
}

export function consoleUrl(path = ""): string {
  return `${consoleOrigin()}/console${path}`;
}

/**
 * Operators' passkeys are bound to the console's origin only: with SESAME_ADMIN_PORT set, a ceremony made
 * on the public port (where every tenant's pages run) does not count, whatever script ran it.
 */
function consoleRelyingParty(): { rpId: string; origins: string[] } {
  return { rpId: new URL(getConfig().baseUrl).hostname, origins: [consoleOrigin()] };
}

/**
 * The console's own tenant: operators' passkeys are credentials of this tenant, verified by the same
 * ceremony code as every tenant's (lib/ceremonies/webauthn), and its audit log is the operators' log.
 * It is hidden from tenant-scoped surfaces (findTenant skips it). Created on first use; its RP ID and
 * origins follow SESAME_BASE_URL and SESAME_ADMIN_PORT.
 */
export async function consoleTenant(): Promise<Tenant> {
  const db = await executor();
  const [row] = await db.select().from(tenants).where(eq(tenants.system, true)).limit(1);
  const { rpId, origins } = consoleRelyingParty();
  if (row) {
    if (row.rpId === rpId && row.origins.join(" ") === origins.join(" ")) return toTenant(row);
    const [updated] = await db
      .update(tenants)
      .set({ rpId, origins, updatedAt: new Date() })
      .where(and(eq(tenants.id, row.id), eq(tenants.system, true)))
      .returning();
    return toTenant(updated ?? row);
  }
  return transaction(async () => {
    const tx = await executor();
    const [created] = await tx
      .insert(tenants)
      .values({
        name: "Sesame console",
        rpName: "Sesame console",
        rpId,
        origins,
        system: true,
        ...applySettingsPatch(DEFAULT_SETTINGS, {}),
      })
      .onConflictDoNothing()
      .returning();
    if (!created) {
      const [existing] = await tx.select().from(tenants).where(eq(tenants.system, true)).limit(1);
      return toTenant(existing!);
    }
    await createSigningKey(created.id, created.signingAlgorithm, { active: true });
    return toTenant(created);
  });
}
