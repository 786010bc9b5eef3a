import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as otpRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/otp/route";
import { hasOtpSecret } from "@/lib/mfa";
import { adminCall } from "@/tests/helpers/admin-api";
import {
  adminFixture,
  auditEvents,
  expectAdminAuth,
  expectAdminError,
  type AdminFixture,
} from "@/tests/helpers/admin-user-resources";
import { addTotp } from "@/tests/helpers/login";

const path = (fx: AdminFixture, userId = fx.user.id) => `/t/${fx.tenant.id}/admin/users/${userId}/otp`;
const send = (fx: AdminFixture, method: "GET" | "DELETE", userId = fx.user.id) =>
  adminCall(otpRoute[method], path(fx, userId), fx.admin, {
    method,
    params: { tenantId: fx.tenant.id, userId },
  });

describe("/t/{tenant_id}/admin/users/{user_id}/otp", () => {
  it("reads the authenticator app as {id, created_at} (never the secret) and deletes it (204), audited", async () => {
    const fx = await adminFixture();
    await expectAdminError(await send(fx, "GET"), 404);
    await addTotp(fx.tenant, fx.user);

    const res = await send(fx, "GET");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: fx.user.id,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    const deleted = await send(fx, "DELETE");
    expect(deleted.status).toBe(204);
    expect(await hasOtpSecret(fx.tenant.id, fx.user.id)).toBe(false);
    await expectAdminError(await send(fx, "GET"), 404);
    await expectAdminError(await send(fx, "DELETE"), 404);
    const [event] = await auditEvents(fx.tenant.id, "otp_secret.delete.succeeded");
    expect(event!.actor).toMatch(/^api_key:/);
    expect(event!.details).toMatchObject({ userId: fx.user.id });
    const [failed] = await auditEvents(fx.tenant.id, "otp_secret.delete.failed");
    expect(failed!.actor).toMatch(/^api_key:/);
  });

  it("answers 404 for an unknown or another tenant's user (deleting nothing), 400 for a bad id", async () => {
    const fx = await adminFixture();
    const other = await adminFixture();
    await addTotp(other.tenant, other.user);
    for (const method of ["GET", "DELETE"] as const) {
      await expectAdminError(await send(fx, method, other.user.id), 404);
      await expectAdminError(await send(fx, method, randomUUID()), 404);
      await expectAdminError(await send(fx, method, "not-a-uuid"), 400);
    }
    expect(await hasOtpSecret(other.tenant.id, other.user.id)).toBe(true);
  });

  it("answers 401 without the tenant's admin key, deleting nothing", async () => {
    const fx = await adminFixture();
    await addTotp(fx.tenant, fx.user);
    const params = { tenantId: fx.tenant.id, userId: fx.user.id };
    await expectAdminAuth(otpRoute.GET, fx, { method: "GET", path: path(fx), params });
    await expectAdminAuth(otpRoute.DELETE, fx, { method: "DELETE", path: path(fx), params });
    expect(await hasOtpSecret(fx.tenant.id, fx.user.id)).toBe(true);
  });
});
