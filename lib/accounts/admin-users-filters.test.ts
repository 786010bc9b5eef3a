import { describe, expect, it } from "vitest";
import { saveCredential } from "@/lib/credentials";
import { setPasswordOfUser } from "@/lib/accounts";
import { updateTenant } from "@/lib/tenants";
import { createTestTenant } from "@/tests/helpers/tenants";
import { createAdminUser, listAdminUsers } from ".";

const context = { actor: "operator:test" };

describe("listAdminUsers: the console's passkey and password filters", () => {
  it("keeps the users with or without a passkey (MFA keys do not count) or a password", async () => {
    const created = await createTestTenant();
    const tenant = await updateTenant(created.tenant.id, { platform: { password: { enabled: true } } });
    const make = async (name: string) =>
      (
        await createAdminUser(
          tenant,
          { emails: [{ address: `${name}@example.test`, isPrimary: true, isVerified: true }] },
          context,
        )
      ).user.id;
    const [withPasskey, withMfaKey, withPassword] = [
      await make("passkey"),
      await make("mfa"),
      await make("password"),
    ];
    const credential = (id: string, userId: string, isMfa: boolean) => ({
      tenantId: tenant.id,
      id,
      userId,
      name: id,
      publicKey: "AA",
      aaguid: "00000000-0000-0000-0000-000000000000",
      attestationType: "none",
      backupEligible: false,
      backupState: false,
      userVerified: true,
      isMfa,
    });
    await saveCredential(credential("cred-passkey", withPasskey, false));
    await saveCredential(credential("cred-mfa", withMfaKey, true));
    await setPasswordOfUser(tenant, withPassword, "correct horse battery", "create", context);

    const ids = async (filter: { passkey?: boolean; password?: boolean }) => {
      const page = await listAdminUsers(tenant.id, { page: 1, perPage: 10, direction: "asc", ...filter });
      expect(page.total).toBe(page.users.length);
      return page.users.map((admin) => admin.user.id);
    };
    expect(await ids({})).toEqual([withPasskey, withMfaKey, withPassword]);
    expect(await ids({ passkey: true })).toEqual([withPasskey]);
    expect(await ids({ passkey: false })).toEqual([withMfaKey, withPassword]);
    expect(await ids({ password: true })).toEqual([withPassword]);
    expect(await ids({ passkey: false, password: false })).toEqual([withMfaKey]);
  });
});
