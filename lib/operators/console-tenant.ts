import { getConfig } from "@/lib/config";
import { ensureSystemTenant, type Tenant } from "@/lib/tenants";

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
export function consoleTenant(): Promise<Tenant> {
  return ensureSystemTenant("Sesame console", consoleRelyingParty());
}
