import { describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import { createAdminUser } from "@/lib/accounts";
import { listAuditEvents } from "@/lib/audit";
import { tenantAnalytics } from "@/lib/console/analytics";
import { createPublicTenant } from "@/tests/helpers/public-api";
import { issueSession, listSessionsOfUser } from ".";

const context = { actor: "test", ip: "192.0.2.1", userAgent: "vitest" };

describe("a user's own sign-in (one statement)", () => {
  it("writes the session, ends the oldest past the limit, records both and counts the login", async () => {
    const tenant = await createPublicTenant({ platform: { session: { limit: 2 } } });
    const { user } = await createAdminUser(
      tenant,
      { emails: [{ address: "sign-in@example.com", isPrimary: true, isVerified: true }], username: "signer" },
      { actor: "test" },
    );
    const first = await issueSession(tenant, user, ["passkey"], context);
    const second = await issueSession(tenant, user, ["passkey", "totp"], context);
    const third = await issueSession(tenant, user, ["otp"], context);

    const left = (await listSessionsOfUser(tenant.id, user.id)).map((session) => session.id);
    expect(left.sort()).toEqual([second.session.id, third.session.id].sort());
    expect(third.session).toMatchObject({
      amr: ["otp"],
      ip: "192.0.2.1",
      userAgent: "vitest",
      userId: user.id,
    });

    const created = (await listAuditEvents(tenant.id, { type: "session.created" })).items;
    const last = created.find((event) => event.details.sessionId === third.session.id);
    expect(last).toMatchObject({ actor: user.id, ip: "192.0.2.1", userAgent: "vitest" });
    expect(last?.details).toMatchObject({ amr: ["otp"], endedByLimit: [first.session.id] });
    expect(created.find((event) => event.details.sessionId === first.session.id)?.details).toMatchObject({
      endedByLimit: [],
    });

    // The token carries the primary address read by the same statement.
    expect(decodeJwt(third.token)).toMatchObject({
      sub: user.id,
      email: { address: "sign-in@example.com", is_primary: true },
    });
    const today = new Date().toISOString().slice(0, 10);
    const { totals, adoption } = await tenantAnalytics(tenant.id, { from: today, to: today, bucket: "day" });
    expect(totals.logins).toMatchObject({ passkey: 2, passcode: 1 });
    expect(adoption.activeUsers).toBe(1);
  });
});
