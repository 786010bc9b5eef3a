import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as finalizeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/finalize/route";
import * as initializeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/initialize/route";
import * as passwordRoute from "@/app/(public-api)/t/[tenantId]/password/route";
import * as usersRoute from "@/app/(public-api)/t/[tenantId]/users/route";
import * as validateRoute from "@/app/(public-api)/t/[tenantId]/sessions/validate/route";
import { finalizePublicRegistration, initializePublicRegistration } from "@/lib/ceremonies/webauthn";
import { executor } from "@/lib/db";
import { passwords, webauthnCredentials } from "@/lib/db/schema";
import type { Tenant } from "@/lib/tenants";
import { findUser } from "@/lib/users";
import { act, expectState } from "../helpers/flows";
import { identify, loginInit } from "../helpers/login";
import { ORIGIN, TEST_CONTEXT, createPasscodeTenant, publicCall, useDevOutbox } from "../helpers/public-api";
import { outboxCode } from "../helpers/smtp";
import { WebAuthnSoftwareAuthenticator } from "../helpers/webauthn-software-authenticator";

useDevOutbox();

async function isValid(tenant: Tenant, token: string): Promise<boolean> {
  const res = await publicCall(validateRoute.GET, tenant, "GET", "/sessions/validate", { token });
  return ((await res.json()) as { is_valid: boolean }).is_valid;
}

async function access(tenant: Tenant, userId: string) {
  const db = await executor();
  const [keys] = await db
    .select({ n: count() })
    .from(webauthnCredentials)
    .where(and(eq(webauthnCredentials.tenantId, tenant.id), eq(webauthnCredentials.userId, userId)));
  const [password] = await db.select({ n: count() }).from(passwords).where(eq(passwords.userId, userId));
  return { passkeys: keys!.n, password: password!.n };
}

/**
 * The attacker signs up with the victim's address (no verification asked), sets a password and adds a
 * passkey with the session sign-up gave them.
 */
async function preRegister(tenant: Tenant, victim: string) {
  const res = await publicCall(usersRoute.POST, tenant, "POST", "/users", { body: { email: victim } });
  expect(res.status).toBe(200);
  const { user_id: userId } = (await res.json()) as { user_id: string };
  const cookie = res.headers.get("set-cookie")!;
  const token = cookie.slice("hanko=".length, cookie.indexOf(";"));
  const set = await publicCall(passwordRoute.POST, tenant, "POST", "/password", {
    token,
    origin: ORIGIN,
    body: { password: "the attacker's password" },
  });
  expect(set.status).toBe(201);
  const user = (await findUser(tenant.id, userId))!;
  const authenticator = new WebAuthnSoftwareAuthenticator();
  const options = await initializePublicRegistration(tenant, user, TEST_CONTEXT);
  await finalizePublicRegistration(
    tenant,
    user,
    await authenticator.register(options, { origin: ORIGIN }),
    TEST_CONTEXT,
  );
  expect(await access(tenant, userId)).toEqual({ passkeys: 1, password: 1 });
  return { userId, token };
}

const laxTenant = () =>
  createPasscodeTenant({ platform: { emails: { requireVerification: false }, password: { enabled: true } } });

describe("security 8: the first proof of an address removes what was set up before it", () => {
  it("security 8: a code login through the login flow removes the pre-registered passkey, password and session", async () => {
    const tenant = await laxTenant();
    const victim = `${crypto.randomUUID()}@example.com`;
    const attacker = await preRegister(tenant, victim);

    const chooser = expectState(
      await identify(tenant, await loginInit(tenant), victim),
      "login_method_chooser",
    );
    const passcode = expectState(
      await act(tenant, chooser, "continue_to_passcode_confirmation"),
      "passcode_confirmation",
    );
    const done = expectState(
      await act(tenant, passcode, "verify_passcode", { code: await outboxCode(tenant.id, victim) }),
      "success",
    );
    expect(
      (done.payload as { user: { emails: { is_verified: boolean }[] } }).user.emails[0]?.is_verified,
    ).toBe(true);
    expect(await access(tenant, attacker.userId)).toEqual({ passkeys: 0, password: 0 });
    expect(await isValid(tenant, attacker.token)).toBe(false);
  });

  it("security 8: POST /passcode/login/finalize without a session does the same; with the account's session it keeps all", async () => {
    const tenant = await laxTenant();
    const victim = `${crypto.randomUUID()}@example.com`;
    const attacker = await preRegister(tenant, victim);
    const init = await publicCall(initializeRoute.POST, tenant, "POST", "/passcode/login/initialize", {
      body: { user_id: attacker.userId },
    });
    const { id } = (await init.json()) as { id: string };
    const res = await publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", {
      body: { id, code: await outboxCode(tenant.id, victim) },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await access(tenant, attacker.userId)).toEqual({ passkeys: 0, password: 0 });
    expect(await isValid(tenant, attacker.token)).toBe(false);

    // The account's own session verifying its first address proves both: nothing is removed.
    const own = `${crypto.randomUUID()}@example.com`;
    const owner = await preRegister(tenant, own);
    const ownInit = await publicCall(initializeRoute.POST, tenant, "POST", "/passcode/login/initialize", {
      body: { user_id: owner.userId },
      token: owner.token,
    });
    const ownCode = (await ownInit.json()) as { id: string };
    const verified = await publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", {
      body: { id: ownCode.id, code: await outboxCode(tenant.id, own) },
      token: owner.token,
    });
    expect(verified.status).toBe(200);
    expect(await access(tenant, owner.userId)).toEqual({ passkeys: 1, password: 1 });
    expect(await isValid(tenant, owner.token)).toBe(true);
  });
});
