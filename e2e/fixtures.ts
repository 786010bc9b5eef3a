import fs from "node:fs";
import path from "node:path";
import { test as base, expect } from "@playwright/test";

export interface DemoTenant {
  tenantId: string;
  keys: { admin: string; passkey: string; authenticator: string };
}

/** The demo tenant the server seeded on its first start, read from its data folder. */
export const test = base.extend<{ demo: DemoTenant }>({
  // Playwright requires the object pattern for a fixture without dependencies.
  // eslint-disable-next-line no-empty-pattern
  demo: async ({}, use, testInfo) => {
    const dataDir = testInfo.project.metadata.dataDir as string;
    await use(JSON.parse(fs.readFileSync(path.join(dataDir, "demo-keys.json"), "utf8")) as DemoTenant);
  },
});

export { expect };
