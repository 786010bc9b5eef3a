import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { recordAuditEvent } from "@/lib/audit";
import { saveCredential } from "@/lib/credentials";
import { addUser } from "@/lib/users";
import { createTestTenant } from "@/tests/helpers/tenants";
import { recordEventAnalytics } from "@/lib/analytics";
import { lastDays, overviewCounts, tenantAnalytics } from "./analytics";

const today = () => lastDays(1).to;
const session = (actor: string, amr: string[], details: Record<string, unknown> = {}) =>
  ({ type: "session.created", actor, details: { sessionId: randomUUID(), amr, ...details } }) as const;

describe("analytics rollup", () => {
  it("counts a sign-up, logins by method, failed logins and passkey adoption as events are recorded", async () => {
    const { tenant } = await createTestTenant();
    const withPasskey = await addUser(tenant.id);
    await saveCredential({
      tenantId: tenant.id,
      id: `cred-${randomUUID()}`,
      userId: withPasskey.id,
      name: "test",
      publicKey: "AA",
      aaguid: "00000000-0000-0000-0000-000000000000",
      attestationType: "none",
      backupEligible: false,
      backupState: false,
      userVerified: true,
    });
    const other = randomUUID();
    await recordAuditEvent(tenant.id, { type: "user.signup.succeeded", actor: withPasskey.id });
    await recordAuditEvent(tenant.id, session(withPasskey.id, ["passkey"]));
    await recordAuditEvent(tenant.id, session(withPasskey.id, ["pwd", "totp"]));
    await recordAuditEvent(tenant.id, session(other, ["otp"]));
    await recordAuditEvent(tenant.id, session(other, ["ext:google"]));
    await recordAuditEvent(tenant.id, { type: "passkey.login.finalize.succeeded", actor: "rp-user-1" });
    await recordAuditEvent(tenant.id, { type: "passcode.login.finalize.failed", actor: other });
    await recordAuditEvent(tenant.id, { type: "webauthn.login.finalize.failed" });

    const { from, to } = lastDays(30);
    const result = await tenantAnalytics(tenant.id, { from, to, bucket: "day" });
    expect(result.series).toHaveLength(30);
    expect(result.totals).toEqual({
      signups: 1,
      logins: { passkey: 2, passcode: 1, password: 1, third_party: 1 },
      failedLogins: 2,
    });
    expect(result.series.at(-1)).toMatchObject({ start: today(), signups: 1, failedLogins: 2 });
    // Active: the passkey holder, the other user and the Passkey API user (who logged in with one).
    expect(result.adoption).toEqual({ activeUsers: 3, withPasskey: 2, share: 2 / 3 });

    const [overview] = await overviewCounts([tenant.id]);
    expect(overview).toEqual({ tenantId: tenant.id, users: 1, signups: 1, logins: 5 });
  });

  it("writes nothing for events it does not count", async () => {
    const { tenant } = await createTestTenant();
    await recordAuditEvent(tenant.id, { type: "email.verified", actor: randomUUID() });
    await recordAuditEvent(tenant.id, { type: "passkey.login.initialize.succeeded" });
    await recordAuditEvent(tenant.id, { type: "user.signup.succeeded", details: { again: true } });
    await recordAuditEvent(tenant.id, session(randomUUID(), [])); // sign-up without verification
    await recordAuditEvent(tenant.id, {
      ...session(randomUUID(), []),
      details: { amr: [], impersonated_user_id: "u" },
      impersonatedBy: "api_key:1",
    });
    const { from, to } = lastDays(30);
    const result = await tenantAnalytics(tenant.id, { from, to, bucket: "month" });
    expect(result.totals).toEqual({
      signups: 0,
      logins: { passkey: 0, passcode: 0, password: 0, third_party: 0 },
      failedLogins: 0,
    });
    expect(result.adoption).toEqual({ activeUsers: 0, withPasskey: 0, share: null });
  });

  it("counts third-party and SAML sign-ups and refused sign-ins, not refused starts or links", async () => {
    const { tenant } = await createTestTenant();
    await recordAuditEvent(tenant.id, { type: "identity.created", details: { signup: true } });
    await recordAuditEvent(tenant.id, { type: "identity.linked", details: {} });
    await recordAuditEvent(tenant.id, { type: "thirdparty.signin.failed", details: { step: "callback" } });
    await recordAuditEvent(tenant.id, { type: "thirdparty.signin.failed", details: { step: "start" } });
    await recordAuditEvent(tenant.id, { type: "saml.acs.failed", details: {} });
    const { from, to } = lastDays(30);
    const result = await tenantAnalytics(tenant.id, { from, to, bucket: "day" });
    expect(result.totals).toMatchObject({ signups: 1, failedLogins: 2 });
  });

  it("sums days into weeks (from Monday) and months", async () => {
    const { tenant } = await createTestTenant();
    const on = (day: string) => new Date(`${day}T12:00:00Z`);
    for (const day of ["2026-01-05", "2026-01-06", "2026-01-11", "2026-01-12", "2026-02-01"]) {
      await recordEventAnalytics(tenant.id, { type: "user.signup.succeeded" }, on(day));
    }
    await recordEventAnalytics(tenant.id, { type: "password.verify.failed" }, on("2026-01-31"));
    const range = { from: "2026-01-05", to: "2026-02-01" };
    const weeks = await tenantAnalytics(tenant.id, { ...range, bucket: "week" });
    expect(weeks.series.map((point) => [point.start, point.signups, point.failedLogins])).toEqual([
      ["2026-01-05", 3, 0],
      ["2026-01-12", 1, 0],
      ["2026-01-19", 0, 0],
      ["2026-01-26", 1, 1],
    ]);
    const months = await tenantAnalytics(tenant.id, { ...range, bucket: "month" });
    expect(months.series.map((point) => [point.start, point.signups])).toEqual([
      ["2026-01-01", 4],
      ["2026-02-01", 1],
    ]);
    const days = await tenantAnalytics(tenant.id, { ...range, bucket: "day" });
    expect(days.series).toHaveLength(28);
    expect(days.totals.signups).toBe(5);
  });
});
