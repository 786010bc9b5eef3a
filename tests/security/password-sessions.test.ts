import { describe, expect, it } from "vitest";
import * as passwordRoute from "@/app/(public-api)/t/[tenantId]/password/route";
import * as validateRoute from "@/app/(public-api)/t/[tenantId]/sessions/validate/route";
import { setPasswordOfSelf } from "@/lib/accounts";
import type { Tenant } from "@/lib/tenants";
import { act, expectState } from "../helpers/flows";
import { forgotPassword } from "../helpers/login";
import {
  ORIGIN,
  TEST_CONTEXT,
  createPasscodeTenant,
  createUserWithEmail,
  publicCall,
  sessionFor,
  useDevOutbox,
} from "../helpers/public-api";

useDevOutbox();

async function isValid(tenant: Tenant, token: string): Promise<boolean> {
  const res = await publicCall(validateRoute.GET, tenant, "GET", "/sessions/validate", { token });
  return ((await res.json()) as { is_valid: boolean }).is_valid;
}

describe("security 12: a new password ends the user's other sessions", () => {
  it("security 12: PUT /password keeps the caller's session and ends the others", async () => {
    const tenant = await createPasscodeTenant({ platform: { password: { enabled: true } } });
    const user = await createUserWithEmail(tenant);
    await setPasswordOfSelf(tenant, user, { password: "the first password" }, TEST_CONTEXT);
    const mine = await sessionFor(tenant, user, ["pwd"]);
    const elsewhere = await sessionFor(tenant, user, ["pwd"]);
    const res = await publicCall(passwordRoute.PUT, tenant, "PUT", "/password", {
      token: mine,
      origin: ORIGIN,
      body: { user_id: user.id, password: "a second password" },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await isValid(tenant, mine)).toBe(true);
    expect(await isValid(tenant, elsewhere)).toBe(false);
  });

  it("security 12: a password reset in the login flow ends every earlier session", async () => {
    const tenant = await createPasscodeTenant({ platform: { password: { enabled: true } } });
    const mail = `${crypto.randomUUID()}@example.com`;
    const user = await createUserWithEmail(tenant, mail);
    await setPasswordOfSelf(tenant, user, { password: "the first password" }, TEST_CONTEXT);
    const earlier = await sessionFor(tenant, user, ["pwd"]);
    const { passcode, code } = await forgotPassword(tenant, mail);
    const recovery = expectState(
      await act(tenant, passcode, "verify_passcode", { code }),
      "login_password_recovery",
    );
    expectState(
      await act(tenant, recovery, "password_recovery", { new_password: "a brand new password" }),
      "success",
    );
    expect(await isValid(tenant, earlier)).toBe(false);
  });
});
