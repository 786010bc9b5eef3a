import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as token from "@/app/(public-api)/t/[tenantId]/token/route";
import { configureWebhooks } from "@/lib/webhooks";
import { createProvider } from "@/lib/thirdparty";
import type { Tenant } from "@/lib/tenants";
import { startOidcPeer, type OidcPeer } from "../helpers/oidc-peer";
import { createPublicTenant, publicCall, TEST_CONTEXT, validateSessionCookie } from "../helpers/public-api";
import { REDIRECT_TO, signInThroughPeer } from "../helpers/thirdparty";

let peer: OidcPeer;

beforeAll(async () => {
  // Loopback peers, as webhooks allow them with SESAME_WEBHOOKS_ALLOW_PRIVATE=true.
  configureWebhooks({ allowPrivate: true });
  peer = await startOidcPeer();
});
afterAll(async () => {
  configureWebhooks(undefined);
  await peer.close();
});

async function tenantWithPeer(settings: { allowLinking?: boolean; kind?: "oidc" | "google" } = {}) {
  const tenant = await createPublicTenant();
  const kind = settings.kind ?? "oidc";
  await createProvider(
    tenant.id,
    {
      kind,
      ...(kind === "oidc" ? { slug: "acme" } : {}),
      clientId: peer.clientId,
      clientSecret: peer.clientSecret,
      options: { issuer: peer.issuer },
      allowLinking: settings.allowLinking ?? false,
    },
    TEST_CONTEXT,
  );
  return tenant;
}

async function exchange(tenant: Tenant, value: string) {
  return publicCall(token.POST, tenant, "POST", "/token", { body: { value } });
}

describe("third-party sign-in with an OpenID Connect provider", () => {
  it("signs up on the first sign-in and returns a one-time token that becomes a session", async () => {
    const tenant = await tenantWithPeer();
    peer.account = { sub: "acme-1", email: "ada@example.com", email_verified: true, name: "Ada" };
    const { location } = await signInThroughPeer(tenant, "acme");
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_TO);
    const value = location.searchParams.get("hanko_token");
    expect(value, location.toString()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await exchange(tenant, value!);
    expect(res.status, await res.clone().text()).toBe(200);
    const { session } = await validateSessionCookie(tenant, res);
    expect(session).toMatchObject({
      is_valid: true,
      claims: { amr: ["ext:acme"], email: { address: "ada@example.com", is_verified: true } },
    });
  });
});
