import { describe, expect, it } from "vitest";
import { queryAuditLogs } from "@/lib/audit-logs";
import { upsertExternalUser } from "@/lib/users";
import { createAdminUser } from "@/lib/accounts";
import { createTestTenant } from "@/tests/helpers/tenants";
import { impersonateUser, listSessionsOfUser, revokeAllSessionsOfUser, validateSessionToken } from ".";

const context = { actor: "operator:test" };

describe("revokeAllSessionsOfUser", () => {
  it("ends every session of the user at once, with one audit entry naming the actor", async () => {
    const { tenant } = await createTestTenant();
    const { user } = await createAdminUser(tenant, { emails: [], username: "revoke-all" }, context);
    const first = await impersonateUser(tenant, user.id, {}, context);
    await impersonateUser(tenant, user.id, {}, context);
    expect(await listSessionsOfUser(tenant.id, user.id)).toHaveLength(2);

    expect(await revokeAllSessionsOfUser(tenant.id, user.id, context)).toBe(2);
    expect(await listSessionsOfUser(tenant.id, user.id)).toEqual([]);
    expect((await validateSessionToken(tenant, first.token)).valid).toBe(false);
    const { entries } = await queryAuditLogs(tenant.id, { types: ["session.revoked"] });
    expect(entries).toHaveLength(1);
    expect(entries[0]?.details).toMatchObject({ userId: user.id, sessionIds: expect.any(Array) });
    expect(await revokeAllSessionsOfUser(tenant.id, user.id, context)).toBe(0);
  });

  it("refuses a Passkey API user as the admin API does", async () => {
    const { tenant } = await createTestTenant();
    const user = await upsertExternalUser(tenant.id, {
      externalId: "ext-1",
      username: "ext",
      displayName: "Ext",
      icon: null,
    });
    await expect(revokeAllSessionsOfUser(tenant.id, user.id, context)).rejects.toMatchObject({
      code: "USER_NOT_FOUND",
    });
  });
});
