"use server";

import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { getConfig } from "@/lib/config";
import { exampleTenant } from "@/lib/examples";

/*
 * The relying party's backend of the demo: it holds the Passkey API key and calls the Passkey API over
 * HTTP, exactly as an application using Sesame would. The browser talks to the Passkey API directly
 * only where no key is needed (registration finalize, login).
 */

async function passkeyApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  const { tenantId, keys } = await exampleTenant();
  const res = await fetch(`${getConfig().baseUrl}/passkey/${tenantId}${path}`, {
    method,
    headers: { apiKey: keys.passkey, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  if (res.status === 204) return undefined as T;
  const json = await res.json();
  if (!res.ok) throw new Error([...(json.title ?? []), ...(json.details ?? [])].join(": "));
  return json as T;
}

let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

/** Verifies a finalize token the way an application should: signature against the JWKS, audience, expiry. */
export async function verifyToken(token: string): Promise<JWTPayload> {
  const { tenantId, rpId } = await exampleTenant();
  jwks ??= createRemoteJWKSet(new URL(`${getConfig().baseUrl}/passkey/${tenantId}/.well-known/jwks.json`));
  const { payload } = await jwtVerify(token, jwks, { audience: rpId });
  return payload;
}

export async function beginRegistration(username: string): Promise<unknown> {
  const { publicKey } = await passkeyApi<{ publicKey: unknown }>("POST", "/registration/initialize", {
    user_id: username,
    username,
  });
  return publicKey;
}

export async function beginTransaction(
  userId: string,
  transactionId: string,
  data: unknown,
): Promise<unknown> {
  const { publicKey } = await passkeyApi<{ publicKey: unknown }>("POST", "/transaction/initialize", {
    user_id: userId,
    transaction_id: transactionId,
    transaction_data: data,
  });
  return publicKey;
}

export async function finishTransaction(credential: unknown): Promise<JWTPayload> {
  const { token } = await passkeyApi<{ token: string }>("POST", "/transaction/finalize", credential);
  return verifyToken(token);
}

export interface DemoCredential {
  id: string;
  name: string;
  authenticator_name: string | null;
  created_at: string;
  last_used_at: string | null;
}

export async function listCredentials(userId: string): Promise<DemoCredential[]> {
  return passkeyApi<DemoCredential[]>("GET", `/credentials?user_id=${encodeURIComponent(userId)}`);
}

export async function renameCredential(credentialId: string, name: string): Promise<void> {
  await passkeyApi("PATCH", `/credentials/${credentialId}`, { name });
}

export async function deleteCredential(credentialId: string): Promise<void> {
  await passkeyApi("DELETE", `/credentials/${credentialId}`);
}
