import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signUpWithEmail } from "@/lib/accounts";
import { listAuditEvents } from "@/lib/audit";
import { checkSessionToken } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { findUser } from "@/lib/users";
import { sesameInProcess as sesame } from "../helpers/cli";
import { TEST_CONTEXT, sessionFor } from "../helpers/public-api";
import { createTestTenant } from "../helpers/tenants";

async function signedUp(tenant: Tenant, email: string) {
  const { body } = await signUpWithEmail(tenant, { email }, TEST_CONTEXT);
  return (await findUser(tenant.id, body.user_id))!;
}

describe("npm run sesame -- user lock|unlock (issue 29)", () => {
  it("locks (the sessions end, sign-in is refused) and unlocks, audited as the CLI", async () => {
    const { tenant } = await createTestTenant();
    const user = await signedUp(tenant, "locked@cli.test");
    const token = await sessionFor(tenant, user);

    const locked = await sesame("user", "lock", "--tenant", tenant.id, "--user", user.id);
    expect(locked.code, locked.stderr).toBe(0);
    expect(locked.stdout).toBe(`Locked user ${user.id} (locked@cli.test). Their sessions have ended.\n`);
    expect((await findUser(tenant.id, user.id))!.lockedAt).toBeInstanceOf(Date);
    expect(await checkSessionToken(tenant, token)).toBeUndefined();
    await expect(sessionFor(tenant, user)).rejects.toMatchObject({ code: "USER_LOCKED" });

    const unlocked = await sesame("user", "unlock", "--tenant", tenant.id, "--user", user.id, "--json");
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(JSON.parse(unlocked.stdout)).toEqual({ user: { id: user.id, locked: false } });
    expect(await checkSessionToken(tenant, await sessionFor(tenant, user))).toBeDefined();

    const audit = await listAuditEvents(tenant.id, { limit: 50 });
    const events = audit.items.filter((e) => e.type === "user.locked" || e.type === "user.unlocked");
    expect(events.map((e) => [e.type, e.actor]).sort()).toEqual([
      ["user.locked", "cli"],
      ["user.unlocked", "cli"],
    ]);
  });

  it("refuses bad input with a usage error or a domain error, changing nothing", async () => {
    const { tenant } = await createTestTenant();
    const other = await createTestTenant();
    const user = await signedUp(tenant, "kept@cli.test");
    const cases: [string[], number, RegExp][] = [
      [["user", "lock", "--user", user.id], 2, /--tenant <tenant-id> is required/],
      [["user", "lock", "--tenant", tenant.id], 2, /--user <user-id> \(a UUID\) is required/],
      [["user", "lock", "--tenant", tenant.id, "--user", "1' or '1'='1"], 2, /a UUID/],
      [["user", "lock", "--tenant", "nope", "--user", user.id], 2, /no tenant nope/],
      [["user", "lock", "--tenant", randomUUID(), "--user", user.id], 2, /no tenant/],
      // Another tenant's user is not found, as on the admin API.
      [["user", "lock", "--tenant", other.tenant.id, "--user", user.id], 1, /Error: .*not found/i],
      [["user", "unlock", "--tenant", tenant.id, "--user", randomUUID()], 1, /Error: .*not found/i],
      [["user", "lock", "--tenant", tenant.id, "--user", user.id, "--bogus"], 2, /Unknown option/],
    ];
    for (const [args, code, message] of cases) {
      const run = await sesame(...args);
      expect({ args, code: run.code }).toEqual({ args, code });
      expect(run.stderr).toMatch(message);
    }
    expect((await findUser(tenant.id, user.id))!.lockedAt).toBeNull();
  });
});
