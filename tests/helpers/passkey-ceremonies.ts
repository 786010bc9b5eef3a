import { randomUUID } from "node:crypto";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { expect } from "vitest";
import type { CreateTenantInput } from "@/lib/settings/schemas";
import { passkeyRequest } from "./passkey-api";
import { WebAuthnSoftwareAuthenticator, type RegistrationOverrides } from "./webauthn-software-authenticator";
import { createTestTenant } from "./tenants";

export const ORIGIN = "http://localhost:3000";

interface Ceremony {
  tenantId: string;
  apiKey: string;
  authenticator: WebAuthnSoftwareAuthenticator;
}

/** A fresh tenant with its keys and a software authenticator, in the shape the ceremony helpers take. */
export async function setupTenant(overrides: Partial<CreateTenantInput> = {}) {
  const { tenant, keys } = await createTestTenant(overrides);
  const authenticator = new WebAuthnSoftwareAuthenticator();
  return { tenant, keys, authenticator, ctx: { tenantId: tenant.id, apiKey: keys.passkey, authenticator } };
}

export type TestTenant = Awaited<ReturnType<typeof setupTenant>>;

export const newUserId = () => `user-${randomUUID()}`;

/** `registration/initialize` (or the MFA one) for a user; returns the creation options' `publicKey`. */
export async function initRegistration(
  { tenantId, apiKey }: { tenantId: string; apiKey: string },
  userId: string,
  kind: "registration" | "mfa/registration" = "registration",
) {
  const res = await passkeyRequest(tenantId, "POST", `/${kind}/initialize`, {
    apiKey,
    body: { user_id: userId, username: `${userId}@example.com` },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()).publicKey;
}

/** Signs the creation options with the context's authenticator and returns the response JSON. */
export function attest(
  authenticator: WebAuthnSoftwareAuthenticator,
  publicKey: Parameters<WebAuthnSoftwareAuthenticator["register"]>[0],
  overrides: RegistrationOverrides = {},
  fmt: "none" | "packed" = "none",
): Promise<RegistrationResponseJSON> {
  return authenticator.register(publicKey, { origin: ORIGIN, fmt, overrides });
}

/** Posts a registration response to `registration/finalize` (no key) or the MFA one (with the key). */
export function postRegistration(
  { tenantId, apiKey }: { tenantId: string; apiKey: string },
  body: unknown,
  kind: "registration" | "mfa/registration" = "registration",
): Promise<Response> {
  return passkeyRequest(tenantId, "POST", `/${kind}/finalize`, {
    body,
    ...(kind === "mfa/registration" ? { apiKey } : {}),
  });
}

/** Registers a passkey (or MFA key) for `userId` through the real handlers; returns the token and credential id. */
export async function registerPasskey(
  ctx: Ceremony,
  userId: string,
  options: { mfa?: boolean; fmt?: "none" | "packed" } = {},
): Promise<{ token: string; credentialId: string }> {
  const kind = options.mfa ? "mfa/registration" : "registration";
  const publicKey = await initRegistration(ctx, userId, kind);
  const credential = await attest(ctx.authenticator, publicKey, {}, options.fmt);
  const fin = await postRegistration(ctx, credential, kind);
  expect(fin.status, await fin.clone().text()).toBe(200);
  const { token } = await fin.json();
  return { token, credentialId: credential.id };
}

/** Starts a login (discoverable without `userId`) and returns the options' `publicKey`. */
export async function startLogin(
  { tenantId, apiKey }: Omit<Ceremony, "authenticator">,
  userId?: string,
  kind: "login" | "mfa/login" = "login",
) {
  const res = await passkeyRequest(tenantId, "POST", `/${kind}/initialize`, {
    ...(userId === undefined ? {} : { apiKey, body: { user_id: userId } }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()).publicKey;
}
