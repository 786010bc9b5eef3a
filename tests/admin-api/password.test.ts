import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as passwordRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/password/route";
import { AppError } from "@/lib/errors";
import { findPassword, loginWithPassword } from "@/lib/passwords";
import { findUserSessions } from "@/lib/sessions";
import { upsertExternalUser } from "@/lib/users";
import { adminCall } from "@/tests/helpers/admin-api";
import {
  adminFixture,
  auditEvents,
  expectAdminAuth,
  expectAdminError,
  type AdminFixture,
} from "@/tests/helpers/admin-user-resources";
import { TEST_CONTEXT, sessionFor } from "@/tests/helpers/public-api";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const PASSWORDS_ON = { platform: { password: { enabled: true, minLength: 10 } } };

const path = (fx: AdminFixture, userId = fx.user.id) => `/t/${fx.tenant.id}/admin/users/${userId}/password`;
const send = (
  fx: AdminFixture,
  method: "GET" | "POST" | "PUT" | "DELETE",
  body?: unknown,
  userId = fx.user.id,
) =>
  adminCall(passwordRoute[method], path(fx, userId), fx.admin, {
    method,
    body,
    params: { tenantId: fx.tenant.id, userId },
  });

/** Whether `password` logs the user in. */
async function logsIn(fx: AdminFixture, password: string): Promise<boolean> {
  try {
    await loginWithPassword(fx.tenant, { userId: fx.user.id, password }, TEST_CONTEXT);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === "PASSWORD_INVALID") return false;
    throw error;
  }
}

describe("/t/{tenant_id}/admin/users/{user_id}/password", () => {
  it("creates (200), reads, replaces and deletes the password in Hanko's PasswordCredential shape", async () => {
    const fx = await adminFixture(PASSWORDS_ON);
    await expectAdminError(await send(fx, "GET"), 404);

    const created = await send(fx, "POST", { password: "correct horse" });
    expect(created.status).toBe(200);
    const body = (await created.json()) as Record<string, string>;
    expect(body).toEqual({
      id: fx.user.id,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(await (await send(fx, "GET")).json()).toEqual(body);
    expect(await logsIn(fx, "correct horse")).toBe(true);
    const [set] = await auditEvents(fx.tenant.id, "password.set.succeeded");
    expect(set!.actor).toMatch(/^api_key:/);
    expect(set!.details).toMatchObject({ user_id: fx.user.id, created: true });

    const updated = await send(fx, "PUT", { password: "battery staple" });
    expect(updated.status).toBe(200);
    const after = (await updated.json()) as Record<string, string>;
    expect(after.created_at).toBe(body.created_at);
    expect(after.updated_at! >= body.updated_at!).toBe(true);
    expect(await logsIn(fx, "battery staple")).toBe(true);
    expect(await logsIn(fx, "correct horse")).toBe(false);

    const deleted = await send(fx, "DELETE");
    expect(deleted.status).toBe(204);
    await expectAdminError(await send(fx, "GET"), 404);
    await expectAdminError(await send(fx, "DELETE"), 404);
    expect(await logsIn(fx, "battery staple")).toBe(false);
    const [gone] = await auditEvents(fx.tenant.id, "password.delete.succeeded");
    expect(gone!.actor).toMatch(/^api_key:/);
  });

  it("answers 409 to POST when the user has a password and 404 to PUT when it has none, changing nothing", async () => {
    const fx = await adminFixture(PASSWORDS_ON);
    await expectAdminError(await send(fx, "PUT", { password: "correct horse" }), 404);
    await expectAdminError(await send(fx, "GET"), 404);
    expect((await send(fx, "POST", { password: "correct horse" })).status).toBe(200);
    await expectAdminError(await send(fx, "POST", { password: "another one!" }), 409);
    expect(await logsIn(fx, "correct horse")).toBe(true);
    const [failed] = await auditEvents(fx.tenant.id, "password.set.failed");
    expect(failed!.actor).toMatch(/^api_key:/);
  });

  it("replacing the password ends the user's sessions", async () => {
    const fx = await adminFixture(PASSWORDS_ON);
    await send(fx, "POST", { password: "correct horse" });
    await sessionFor(fx.tenant, fx.user);
    expect(await findUserSessions(fx.tenant.id, fx.user.id)).toHaveLength(1);
    expect((await send(fx, "PUT", { password: "battery staple" })).status).toBe(200);
    expect(await findUserSessions(fx.tenant.id, fx.user.id)).toHaveLength(0);
  });

  it("applies the tenant's password policy (400) and bad bodies (400), changing nothing", async () => {
    const fx = await adminFixture(PASSWORDS_ON);
    for (const body of [
      { password: "short1234" },
      { password: "x".repeat(129) },
      {},
      { password: "" },
      { password: 12345678901 },
    ]) {
      await expectAdminError(await send(fx, "POST", body), 400);
    }
    await expectAdminError(await send(fx, "GET"), 404);
    await send(fx, "POST", { password: "correct horse" });
    const before = await (await send(fx, "GET")).json();
    await expectAdminError(await send(fx, "PUT", { password: "short" }), 400);
    expect(await (await send(fx, "GET")).json()).toEqual(before);
    expect(await logsIn(fx, "correct horse")).toBe(true);
  });

  it("answers 404 to a new password when the tenant has passwords off", async () => {
    const fx = await adminFixture();
    await expectAdminError(await send(fx, "POST", { password: "correct horse" }), 404);
    await expectAdminError(await send(fx, "GET"), 404);
  });

  it("answers 404 for an unknown or another tenant's user, 400 for a bad user id", async () => {
    const fx = await adminFixture(PASSWORDS_ON);
    const other = await adminFixture(PASSWORDS_ON);
    await send(other, "POST", { password: "correct horse" });
    for (const method of ["GET", "DELETE"] as const) {
      await expectAdminError(await send(fx, method, undefined, other.user.id), 404);
      await expectAdminError(await send(fx, method, undefined, randomUUID()), 404);
      await expectAdminError(await send(fx, method, undefined, "x"), 400);
    }
    for (const method of ["POST", "PUT"] as const) {
      await expectAdminError(await send(fx, method, { password: "hijacked password" }, other.user.id), 404);
    }
    expect(await logsIn(other, "correct horse")).toBe(true);
  });

  it("answers 404 for a Passkey API user (external id), setting no password", async () => {
    const fx = await adminFixture(PASSWORDS_ON);
    const external = await upsertExternalUser(fx.tenant.id, {
      externalId: "ext-password",
      username: "ext",
      displayName: "",
      icon: null,
    });
    for (const method of ["POST", "PUT"] as const) {
      await expectAdminError(await send(fx, method, { password: "correct horse" }, external.id), 404);
    }
    for (const method of ["GET", "DELETE"] as const) {
      await expectAdminError(await send(fx, method, undefined, external.id), 404);
    }
    expect(await findPassword(fx.tenant.id, external.id)).toBeUndefined();
  });

  it("answers 401 without the tenant's admin key, changing nothing", async () => {
    const fx = await adminFixture(PASSWORDS_ON);
    await send(fx, "POST", { password: "correct horse" });
    const params = { tenantId: fx.tenant.id, userId: fx.user.id };
    for (const method of ["GET", "POST", "PUT", "DELETE"] as const) {
      const body = method === "POST" || method === "PUT" ? { password: "hijacked password" } : undefined;
      await expectAdminAuth(passwordRoute[method], fx, { method, path: path(fx), params, body });
    }
    expect(await logsIn(fx, "correct horse")).toBe(true);
  });
});
