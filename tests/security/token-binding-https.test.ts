import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before anything reads the configuration: an https deployment.
vi.stubEnv("SESAME_BASE_URL", "https://auth.example.test");

const acsRoute = await import("@/app/(public-api)/t/[tenantId]/saml/acs/route");
const metadataRoute = await import("@/app/(public-api)/t/[tenantId]/saml/metadata/route");
const ssoRoute = await import("@/app/(public-api)/t/[tenantId]/saml/sso/route");
const startRoute = await import("@/app/(public-api)/t/[tenantId]/thirdparty/[provider]/route");
const tokenRoute = await import("@/app/(public-api)/t/[tenantId]/token/route");
const { createSamlProvider } = await import("@/lib/saml");
const { createProvider } = await import("@/lib/thirdparty");
const { configureWebhooks } = await import("@/lib/webhooks");
const { call } = await import("../helpers/http");
const { startOidcPeer } = await import("../helpers/oidc-peer");
const { TEST_CONTEXT, createPublicTenant, publicCall } = await import("../helpers/public-api");
const { createTestIdp } = await import("../helpers/saml-idp");

/**
 * Issue 25, point 2: on https the binding cookies carry the `__Host-` prefix (Secure, `Path=/`, no Domain),
 * which only Sesame's own origin can set: a sibling subdomain (`evil.example.test`) can plant a plain
 * `sesame_saml` for `.example.test`, never a `__Host-` one, and a plain one is not read.
 */

const APP = "http://localhost:3000/app";
let peer: Awaited<ReturnType<typeof startOidcPeer>>;
beforeAll(async () => {
  configureWebhooks({ allowPrivate: true });
  peer = await startOidcPeer();
});
afterAll(async () => {
  configureWebhooks(undefined);
  await peer.close();
});

describe("security 3.2: binding cookies on https", () => {
  it("security 3.2: the third-party start sets __Host-sesame_thirdparty (Secure, Path=/)", async () => {
    const tenant = await createPublicTenant();
    await createProvider(
      tenant.id,
      {
        kind: "oidc",
        slug: "acme",
        displayName: "Acme",
        clientId: peer.clientId,
        clientSecret: peer.clientSecret,
        options: { issuer: peer.issuer },
      },
      TEST_CONTEXT,
    );
    const start = await publicCall(
      startRoute.GET,
      tenant,
      "GET",
      `/thirdparty/acme?redirect_to=${encodeURIComponent(APP)}`,
      {},
      { provider: "acme" },
    );
    expect(start.status, await start.clone().text()).toBe(302);
    expect(start.headers.get("set-cookie")).toMatch(
      /^__Host-sesame_thirdparty=[\w-]{43}; Path=\/; Max-Age=600; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it("security 3.2: a SAML sign-in is bound by __Host-sesame_saml; a plain sesame_saml (a sibling subdomain's) proves nothing at the ACS or the exchange", async () => {
    const tenant = await createPublicTenant();
    const idp = await createTestIdp();
    await createSamlProvider(
      tenant.id,
      { name: "Acme", domains: ["acme.test"], metadata_xml: idp.metadataXml },
      TEST_CONTEXT,
    );
    const spMetadata = await (
      await call(metadataRoute.GET, `/t/${tenant.id}/saml/metadata`, { params: { tenantId: tenant.id } })
    ).text();
    const signIn = async () => {
      const start = await call(
        ssoRoute.GET,
        `/t/${tenant.id}/saml/sso?domain=acme.test&redirect_to=${encodeURIComponent(APP)}`,
        { params: { tenantId: tenant.id } },
      );
      expect(start.status, await start.clone().text()).toBe(302);
      const setCookie = start.headers.get("set-cookie")!;
      expect(setCookie).toMatch(
        /^__Host-sesame_saml=[\w-]{43}; Path=\/; Max-Age=600; HttpOnly; Secure; SameSite=None$/,
      );
      const value = /^__Host-sesame_saml=([\w-]{43})/.exec(setCookie)![1]!;
      const request = idp.readRequest(start.headers.get("location")!);
      const SAMLResponse = await idp.respond(spMetadata, request, {
        nameId: `n-${randomUUID()}`,
        attributes: { email: `${randomUUID()}@acme.test` },
      });
      return { value, SAMLResponse };
    };
    const acs = (SAMLResponse: string, cookie: string) =>
      call(acsRoute.POST, `/t/${tenant.id}/saml/acs`, {
        method: "POST",
        params: { tenantId: tenant.id },
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ SAMLResponse }).toString(),
      });
    const exchange = (value: string, cookie: string) =>
      publicCall(tokenRoute.POST, tenant, "POST", "/token", { body: { value }, headers: { cookie } });

    // At the ACS: the plain name is not the binding cookie.
    const planted = await signIn();
    const refused = await acs(planted.SAMLResponse, `sesame_saml=${planted.value}`);
    expect(new URL(refused.headers.get("location")!).searchParams.get("error_description")).toMatch(
      /another browser/,
    );

    const { value, SAMLResponse } = await signIn();
    const back = await acs(SAMLResponse, `__Host-sesame_saml=${value}`);
    const token = new URL(back.headers.get("location")!).searchParams.get("hanko_token");
    expect(token, back.headers.get("location")!).toBeTruthy();
    // At the exchange: neither the plain name nor the third-party name with this value proves the browser.
    for (const cookie of [`sesame_saml=${value}`, `sesame_thirdparty=${value}`]) {
      expect((await exchange(token!, cookie)).status).toBe(404);
    }
    expect((await exchange(token!, `__Host-sesame_saml=${value}`)).status).toBe(200);
  });
});
