import { randomUUID } from "node:crypto";
import { provisionTenant, type ProvisionedTenant } from "@/lib/accounts";
import type { CreateTenantInput } from "@/lib/settings/schemas";

/** A fresh tenant with one key per scope; tests share a database, so every test makes its own. */
export function createTestTenant(overrides: Partial<CreateTenantInput> = {}): Promise<ProvisionedTenant> {
  return provisionTenant(
    {
      name: `test-${randomUUID().slice(0, 8)}`,
      rpId: "localhost",
      origins: ["http://localhost:3000"],
      ...overrides,
    },
    "test",
  );
}
