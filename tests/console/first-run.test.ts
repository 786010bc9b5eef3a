import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createTenantAction } from "@/app/(console)/console/(signed-in)/tenants/new/actions";
import { createAdminUser } from "@/lib/accounts";
import { authenticateApiKey, listApiKeys } from "@/lib/api-keys";
import { listAuditEvents } from "@/lib/audit";
import { getConfig } from "@/lib/config";
import { tenantHeadline } from "@/lib/console/analytics";
import { tenantChecklist } from "@/lib/console/first-run";
import { getTenant, updateTenant } from "@/lib/tenants";
import { signInOperator } from "@/tests/helpers/console";
import { TEST_CONTEXT, sessionFor } from "@/tests/helpers/public-api";

// Next's request plumbing only (see tests/helpers/console.ts); imported lazily, as vi.mock is hoisted.
vi.mock("next-auth", async (original) =>
  (await import("@/tests/helpers/console")).nextMocks.nextAuth(original as never),
);
vi.mock("next/headers", async () => (await import("@/tests/helpers/console")).nextMocks.headers());
vi.mock("next/cache", async () => (await import("@/tests/helpers/console")).nextMocks.cache());

/** Issue 29, point 12: the wizard's keys, the tenant overview's figures and checklist. */

beforeAll(async () => {
  await signInOperator(`owner-${randomUUID()}@first-run.test`);
});

describe("first run", () => {
  it("creates the tenant with its API keys, shown in the answer once, audited", async () => {
    const result = await createTenantAction({ name: "First run" });
    if (!result.ok) throw new Error(JSON.stringify(result));
    const { id, keys } = result.data;
    expect(keys.map((key) => [key.name, key.scopes])).toEqual([
      ["Backend (admin API)", ["admin"]],
      ["Passkey API", ["passkey"]],
    ]);
    // Each secret works for its scope and starts with the prefix the keys page lists.
    for (const key of keys) {
      const scope = key.scopes[0]!;
      await expect(authenticateApiKey(key.secret, { scope, tenantId: id })).resolves.toBeDefined();
      expect(key.secret.startsWith(key.prefix)).toBe(true);
    }
    const listed = await listApiKeys(id);
    expect(listed.map((key) => key.prefix).sort()).toEqual(keys.map((key) => key.prefix).sort());
    expect(JSON.stringify(listed)).not.toContain(keys[0]!.secret);
    const audit = await listAuditEvents(id, { limit: 10 });
    expect(audit.items.filter((event) => event.type === "api_key.created")).toHaveLength(2);
  });

  it("lists what a new tenant lacks until each is done, and counts users, logins and the passkey share", async () => {
    const result = await createTenantAction({ name: "Checklist" });
    if (!result.ok) throw new Error(JSON.stringify(result));
    const sesameOrigin = new URL(getConfig().baseUrl).origin;
    let tenant = await getTenant(result.data.id);
    let headline = await tenantHeadline(tenant.id);
    expect(headline).toEqual({
      users: 0,
      loginsToday: 0,
      adoption: { activeUsers: 0, withPasskey: 0, share: null },
    });
    expect(await tenantChecklist(tenant, headline.users, sesameOrigin)).toEqual({
      origins: false,
      api_key: true,
      first_user: false,
      branding: false,
    });

    const { user } = await createAdminUser(
      tenant,
      { emails: [{ address: `${randomUUID()}@first-run.test`, isPrimary: true, isVerified: true }] },
      TEST_CONTEXT,
    );
    await sessionFor(tenant, user);
    tenant = await updateTenant(tenant.id, {
      origins: [sesameOrigin, "http://localhost:4999"],
      branding: { displayName: "Checklist Inc" },
    });
    headline = await tenantHeadline(tenant.id);
    expect(headline.users).toBe(1);
    expect(headline.loginsToday).toBe(1);
    expect(headline.adoption).toEqual({ activeUsers: 1, withPasskey: 0, share: 0 });
    expect(await tenantChecklist(tenant, headline.users, sesameOrigin)).toEqual({
      origins: true,
      api_key: true,
      first_user: true,
      branding: true,
    });
  });
});
