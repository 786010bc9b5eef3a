import { expect } from "vitest";
import { passkeyRequest } from "./passkey-api";
import type { SoftwareAuthenticator } from "./software-authenticator";

export const ORIGIN = "http://localhost:3000";

interface Ceremony {
  tenantId: string;
  apiKey: string;
  authenticator: SoftwareAuthenticator;
}

/** Registers a passkey (or MFA key) for `userId` through the real handlers; returns the token and credential id. */
export async function registerPasskey(
  { tenantId, apiKey, authenticator }: Ceremony,
  userId: string,
  options: { mfa?: boolean; fmt?: "none" | "packed" } = {},
): Promise<{ token: string; credentialId: string }> {
  const prefix = options.mfa ? "/mfa/registration" : "/registration";
  const init = await passkeyRequest(tenantId, "POST", `${prefix}/initialize`, {
    apiKey,
    body: { user_id: userId, username: `${userId}@example.com` },
  });
  expect(init.status, await init.clone().text()).toBe(200);
  const { publicKey } = await init.json();
  const credential = await authenticator.register(publicKey, { origin: ORIGIN, fmt: options.fmt ?? "none" });
  const fin = await passkeyRequest(tenantId, "POST", `${prefix}/finalize`, {
    body: credential,
    ...(options.mfa ? { apiKey } : {}),
  });
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
