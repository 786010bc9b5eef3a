import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { operatorEnrolments, operatorSessions } from "@/lib/db/schema";
import { createTenant } from "@/lib/tenants";
import { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";
import {
  beginAddPasskey,
  beginEnrolment,
  beginSignIn,
  canSeeTenant,
  checkOperatorSession,
  consoleOrigin,
  createOperator,
  describeEnrolment,
  finishAddPasskey,
  finishEnrolment,
  finishSignIn,
  listOperatorPasskeys,
  listOperators,
  recoverOperator,
  removeOperator,
  removeOperatorPasskey,
  renameOperatorPasskey,
  revokeAllOperatorSessions,
  updateOperator,
} from ".";

const context = { ip: "127.0.0.1", userAgent: "vitest" };
const tokenOf = (url: string) => new URL(url).hash.slice(1);
const MINUTE = 60_000;

/** Registers a passkey with an enrolment link, as the enrolment page does. */
async function enrol(url: string, authenticator = new WebAuthnSoftwareAuthenticator()) {
  const token = tokenOf(url);
  const options = await beginEnrolment(token, undefined, context);
  const response = await authenticator.register(options, { origin: consoleOrigin() });
  return { operator: await finishEnrolment(token, response, context), authenticator, token };
}

async function signIn(authenticator: WebAuthnSoftwareAuthenticator) {
  const options = await beginSignIn(context);
  return finishSignIn(await authenticator.login(options, { origin: consoleOrigin() }), context);
}

describe("operators", () => {
  it("are created, listed, changed and removed; the last owner stays", async () => {
    const tenant = await createTenant({ name: "granted" });
    const { operator: owner } = await createOperator({ email: "Owner@Ops.test", role: "owner" }, "cli");
    expect(owner).toMatchObject({ email: "owner@ops.test", role: "owner", tenantIds: [] });
    await expect(createOperator({ email: "owner@ops.test" }, "cli")).rejects.toMatchObject({
      code: "OPERATOR_EXISTS",
    });

    const { operator: viewer } = await createOperator(
      { email: "viewer@ops.test", role: "viewer", tenantIds: [tenant.id] },
      `operator:${owner.id}`,
    );
    expect((await listOperators()).find((o) => o.id === viewer.id)).toMatchObject({
      role: "viewer",
      tenantIds: [tenant.id],
      lastSignInAt: null,
    });
    expect(canSeeTenant(viewer, tenant.id)).toBe(true);
    expect(canSeeTenant(viewer, "00000000-0000-4000-8000-000000000000")).toBe(false);
    expect(canSeeTenant(owner, "00000000-0000-4000-8000-000000000000")).toBe(true);

    const admin = await updateOperator(viewer.id, { role: "admin", tenantIds: [] }, "cli");
    expect(admin).toMatchObject({ role: "admin", tenantIds: [] });
    expect(canSeeTenant(admin, tenant.id)).toBe(false);
    await expect(
      updateOperator(
        viewer.id,
        { role: "admin", tenantIds: ["00000000-0000-4000-8000-000000000000"] },
        "cli",
      ),
    ).rejects.toMatchObject({ code: "TENANT_NOT_FOUND" });

    // The only owner can neither be removed nor demoted; with a second owner it can. Operators are not
    // tenant-scoped: on the suite's shared Postgres other files' owners exist meanwhile, so the "only
    // owner" half is asserted where this file has the database to itself (PGlite, and Postgres when alone).
    const alone = async (id: string) =>
      !(await listOperators()).some((o) => o.role === "owner" && o.id !== id);
    if (await alone(owner.id)) {
      await expect(removeOperator(owner.id, "cli")).rejects.toMatchObject({ code: "LAST_OWNER" });
      await expect(updateOperator(owner.id, { role: "viewer" }, "cli")).rejects.toMatchObject({
        code: "LAST_OWNER",
      });
    } else expect(process.env.DATABASE_URL).toBeTruthy();
    await updateOperator(viewer.id, { role: "owner" }, "cli");
    await removeOperator(owner.id, `operator:${viewer.id}`);
    if (await alone(viewer.id)) {
      await expect(removeOperator(viewer.id, "cli")).rejects.toMatchObject({ code: "LAST_OWNER" });
    }
    expect((await listOperators()).map((o) => o.id)).not.toContain(owner.id);
  });

  it("enrolment links work once and expire; recovery replaces an unused link", async () => {
    const { enrolment } = await createOperator({ email: "enrol@ops.test", role: "admin" }, "cli");
    expect(await describeEnrolment(tokenOf(enrolment.url))).toEqual({
      email: "enrol@ops.test",
      setup: false,
    });
    const { operator, token } = await enrol(enrolment.url);
    expect(operator.email).toBe("enrol@ops.test");
    await expect(describeEnrolment(token)).rejects.toMatchObject({ code: "TOKEN_NOT_FOUND" });
    await expect(beginEnrolment(token, undefined, context)).rejects.toMatchObject({
      code: "TOKEN_NOT_FOUND",
    });

    // recoverOperator: a new link; the earlier unused one stops working; old passkeys stay.
    const first = await recoverOperator("enrol@ops.test", "cli");
    const second = await recoverOperator("enrol@ops.test", "cli");
    await expect(describeEnrolment(tokenOf(first.enrolment.url))).rejects.toMatchObject({
      code: "TOKEN_NOT_FOUND",
    });
    await enrol(second.enrolment.url);
    expect(await listOperatorPasskeys(operator.id)).toHaveLength(2);

    // Expired: 30 minutes after it was issued.
    const third = await recoverOperator("enrol@ops.test", "cli");
    const { db } = await getDatabase();
    await db
      .update(operatorEnrolments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(operatorEnrolments.operatorId, operator.id));
    await expect(describeEnrolment(tokenOf(third.enrolment.url))).rejects.toMatchObject({
      code: "TOKEN_NOT_FOUND",
    });
    await expect(recoverOperator("nobody@ops.test", "cli")).rejects.toMatchObject({
      code: "OPERATOR_NOT_FOUND",
    });
  });

  it("console sessions end after 30 idle minutes, 12 hours, or when revoked", async () => {
    const { enrolment } = await createOperator({ email: "session@ops.test", role: "viewer" }, "cli");
    const { operator, authenticator } = await enrol(enrolment.url);
    const { sessionId, operator: signedIn } = await signIn(authenticator);
    expect(signedIn.id).toBe(operator.id);
    expect((await listOperators()).find((o) => o.id === operator.id)?.lastSignInAt).toBeInstanceOf(Date);

    const now = Date.now();
    expect((await checkOperatorSession(sessionId))?.operator.id).toBe(operator.id);
    // Used after 29 minutes: alive, and the idle clock restarts then.
    expect(await checkOperatorSession(sessionId, new Date(now + 29 * MINUTE))).toBeDefined();
    expect(await checkOperatorSession(sessionId, new Date(now + 58 * MINUTE))).toBeDefined();
    expect(await checkOperatorSession(sessionId, new Date(now + 89 * MINUTE))).toBeUndefined();

    // 12 hours after sign-in, even when used a minute ago.
    const { sessionId: second } = await signIn(authenticator);
    const { db } = await getDatabase();
    await db
      .update(operatorSessions)
      .set({ createdAt: new Date(now - 12 * 60 * MINUTE + MINUTE), lastSeenAt: new Date(now) })
      .where(eq(operatorSessions.id, second));
    expect(await checkOperatorSession(second, new Date(now))).toBeDefined();
    expect(await checkOperatorSession(second, new Date(now + 2 * MINUTE))).toBeUndefined();

    // Sign-out everywhere.
    const { sessionId: third } = await signIn(authenticator);
    const { sessionId: fourth } = await signIn(authenticator);
    expect(await revokeAllOperatorSessions(operator, context)).toBeGreaterThanOrEqual(2);
    expect(await checkOperatorSession(third)).toBeUndefined();
    expect(await checkOperatorSession(fourth)).toBeUndefined();
    expect(await checkOperatorSession("not-a-session")).toBeUndefined();

    // A changed role ends the operator's sessions too.
    const { sessionId: fifth } = await signIn(authenticator);
    await updateOperator(operator.id, { role: "admin" }, "cli");
    expect(await checkOperatorSession(fifth)).toBeUndefined();
  });

  it("an operator adds passkeys and removes all but the last", async () => {
    const { enrolment } = await createOperator({ email: "keys@ops.test", role: "admin" }, "cli");
    const { operator, authenticator } = await enrol(enrolment.url);
    const [only] = await listOperatorPasskeys(operator.id);
    await expect(removeOperatorPasskey(operator, only!.id, context)).rejects.toMatchObject({
      code: "LAST_OPERATOR_PASSKEY",
    });

    // Only with a recent sign-in.
    const stale = new Date(Date.now() - 11 * 60_000);
    await expect(beginAddPasskey(operator, stale, context)).rejects.toMatchObject({
      code: "RECENT_SIGN_IN_REQUIRED",
    });
    const options = await beginAddPasskey(operator, new Date(), context);
    await finishAddPasskey(
      operator,
      await authenticator.register(options, { origin: consoleOrigin() }),
      context,
    );
    expect(await listOperatorPasskeys(operator.id)).toHaveLength(2);
    // A registration started for one operator cannot be finished for another.
    const { operator: other } = await createOperator({ email: "other@ops.test", role: "viewer" }, "cli");
    const stolen = await beginAddPasskey(operator, new Date(), context);
    await expect(
      finishAddPasskey(other, await authenticator.register(stolen, { origin: consoleOrigin() }), context),
    ).rejects.toMatchObject({ code: "CHALLENGE_NOT_FOUND" });

    // Renamed by its operator (issue 29, point 7); another operator's passkey is not found, unchanged.
    await renameOperatorPasskey(operator, only!.id, "Work laptop", context);
    expect((await listOperatorPasskeys(operator.id)).find((p) => p.id === only!.id)?.name).toBe(
      "Work laptop",
    );
    await expect(renameOperatorPasskey(other, only!.id, "Mine now", context)).rejects.toMatchObject({
      code: "OPERATOR_PASSKEY_NOT_FOUND",
    });
    await expect(renameOperatorPasskey(operator, "unknown", "x", context)).rejects.toMatchObject({
      code: "OPERATOR_PASSKEY_NOT_FOUND",
    });
    expect((await listOperatorPasskeys(operator.id)).find((p) => p.id === only!.id)?.name).toBe(
      "Work laptop",
    );

    await removeOperatorPasskey(operator, only!.id, context);
    expect((await listOperatorPasskeys(operator.id)).map((p) => p.id)).not.toContain(only!.id);
    await expect(removeOperatorPasskey(operator, "unknown", context)).rejects.toMatchObject({
      code: "OPERATOR_PASSKEY_NOT_FOUND",
    });
  });
});
