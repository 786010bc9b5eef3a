import fs from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { transaction } from "@/lib/db";
import { findTenant } from "@/lib/tenants";
import { provisionTenant, type ProvisionedTenant } from "@/lib/accounts";
import { insertMetaIfAbsent, updateMeta } from "./store";

const META_KEY = "demo_tenant";
export const DEMO_KEYS_FILE = "demo-keys.json";

export interface DemoTenant {
  tenantId: string;
  name: string;
  rpId: string;
  origins: string[];
  keys: ProvisionedTenant["keys"];
}

/**
 * Seeds the demo tenant (RP ID localhost, origin http://localhost:<port>) on the first start against an
 * empty database, and only then: a marker row records that it happened, so a deleted demo tenant is
 * not re-created. Its keys are written to `<data dir>/demo-keys.json` (mode 0600) so later starts can
 * print them again; this is a development convenience, disabled with SESAME_SEED_DEMO=false.
 */
export async function seedDemoTenant(): Promise<{ demo: DemoTenant | undefined; created: boolean }> {
  const config = getConfig();
  const file = path.join(config.dataDir, DEMO_KEYS_FILE);
  if (!config.seedDemo) return { demo: undefined, created: false };

  const created = await transaction(async () => {
    if (!(await insertMetaIfAbsent(META_KEY, { seededAt: new Date().toISOString() }))) return undefined;
    const { tenant, keys } = await provisionTenant(
      {
        name: "Demo",
        rpId: "localhost",
        rpName: "Sesame Demo",
        origins: [`http://localhost:${config.port}`],
        // The demo pages and the CLI use Sesame's software authenticator (test vendor FFFF).
        uaf: { allowTestAuthenticators: true },
      },
      "system",
    );
    await updateMeta(META_KEY, { seededAt: new Date().toISOString(), tenantId: tenant.id });
    return { tenantId: tenant.id, name: tenant.name, rpId: tenant.rpId, origins: tenant.origins, keys };
  });

  if (created) {
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
    return { demo: created, created: true };
  }
  return { demo: await readDemoKeys(file), created: false };
}

/** The demo tenant and its keys, when this instance seeded one and it still exists. */
export function readDemoTenant(): Promise<DemoTenant | undefined> {
  return readDemoKeys(path.join(getConfig().dataDir, DEMO_KEYS_FILE));
}

async function readDemoKeys(file: string): Promise<DemoTenant | undefined> {
  if (!fs.existsSync(file)) return undefined;
  try {
    const demo = JSON.parse(fs.readFileSync(file, "utf8")) as DemoTenant;
    return (await findTenant(demo.tenantId)) ? demo : undefined;
  } catch {
    return undefined;
  }
}
