import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { createTestIdp, type TestIdp } from "@/tests/helpers/saml-idp";
import {
  freshPage,
  hankoEventCount,
  sesameEventsOf,
  sessionOf,
  startJourneyServer,
  type JourneyServer,
} from "./browser-journey";

/**
 * SAML single sign-on in Chromium: a samlify IdP in this process (HTTP on loopback) answers Sesame's
 * AuthnRequest with an auto-posting form of a signed response. Typing an address of the IdP's domain into
 * unmodified `<hanko-auth>` 2.7.0 (and `<sesame-auth>`) goes to the IdP and comes back signed in: the
 * first time a just-in-time sign-up, then a sign-in of the same user; the session event fires and
 * `/sessions/validate` accepts the session (amr `ext:saml`).
 */

let journey: JourneyServer;
let idp: TestIdp;
let idpServer: http.Server;
let spMetadata = "";
/** Who signs in at the IdP next. */
let nextUser = { nameId: "", email: "" };

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

test.beforeAll(async () => {
  test.setTimeout(90_000);
  // The IdP's SSO endpoint: reads the AuthnRequest and posts a signed response to its ACS URL.
  idpServer = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    if (url.pathname !== "/sso") return void res.writeHead(404).end();
    const request = idp.readRequest(url.href);
    idp
      .respond(spMetadata, request, { nameId: nextUser.nameId, attributes: { email: nextUser.email } })
      .then((SAMLResponse) => {
        res
          .writeHead(200, { "content-type": "text/html; charset=utf-8" })
          .end(
            `<!doctype html><title>IdP</title><form method="post" action="${escapeHtml(request.acsUrl ?? "")}">` +
              `<input type="hidden" name="SAMLResponse" value="${escapeHtml(SAMLResponse)}">` +
              `<input type="hidden" name="RelayState" value="${escapeHtml(request.relayState ?? "")}">` +
              `</form><script>document.forms[0].submit()</script>`,
          );
      })
      .catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => idpServer.listen(0, "127.0.0.1", resolve));
  const port = (idpServer.address() as AddressInfo).port;
  idp = await createTestIdp({
    entityId: `http://localhost:${port}/metadata`,
    ssoUrl: `http://localhost:${port}/sso`,
  });

  journey = await startJourneyServer("saml");
  const demo = JSON.parse(fs.readFileSync(path.join(journey.dataDir, "demo-keys.json"), "utf8")) as {
    keys: { admin: string };
  };
  const res = await fetch(`${journey.base}/t/${journey.tenantId}/admin/saml/providers`, {
    method: "POST",
    headers: { authorization: `Bearer ${demo.keys.admin}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Acme IdP", domains: ["acme.test"], metadata_xml: idp.metadataXml }),
  });
  expect(res.status, await res.text()).toBe(201);
  spMetadata = await (await fetch(`${journey.base}/t/${journey.tenantId}/saml/metadata`)).text();
});

test.afterAll(async () => {
  await journey?.stop();
  await new Promise<void>((resolve) => (idpServer ? idpServer.close(() => resolve()) : resolve()));
});

const validateSession = (page: Page) => sessionOf(page, journey.tenantId);

/** Types the address, continues, and waits until the browser is back on `pageUrl` from the IdP. */
async function throughIdp(page: Page, element: string, pageUrl: string, email: string): Promise<void> {
  const auth = page.locator(element);
  await auth.getByLabel("Email").fill(email);
  const back = page.waitForURL(
    (url) => url.toString().startsWith(pageUrl) && url.searchParams.has("hanko_token"),
  );
  await auth.getByRole("button", { name: "Continue" }).click();
  await back;
}

test("<hanko-auth> 2.7.0: an SSO-domain address signs up, then signs in, at the IdP", async ({ browser }) => {
  test.setTimeout(90_000);
  const pageUrl = `${journey.base}/examples/hanko-elements`;
  const stamp = Date.now();
  nextUser = { nameId: `00u-hanko-${stamp}`, email: `hanko-${stamp}@acme.test` };
  let userId = "";
  for (const [round, label] of ["just-in-time sign-up", "sign in again"].entries()) {
    await test.step(label, async () => {
      const page = await freshPage(browser);
      await page.goto(pageUrl);
      await throughIdp(page, "hanko-auth", pageUrl, nextUser.email);
      await expect.poll(() => hankoEventCount(page, "hanko-session-created"), { timeout: 15_000 }).toBe(1);
      const session = await validateSession(page);
      expect(session).toMatchObject({ is_valid: true, claims: { amr: ["ext:saml"] } });
      expect(session.claims?.email?.address).toBe(nextUser.email);
      if (round === 0) userId = session.claims!.subject!;
      else expect(session.claims?.subject).toBe(userId);
      await page.context().close();
    });
  }
});

test("<sesame-auth>: an SSO-domain address signs in at the IdP", async ({ browser }) => {
  test.setTimeout(90_000);
  const pageUrl = `${journey.base}/examples/sesame-elements?tenant=${journey.tenantId}`;
  const stamp = Date.now();
  nextUser = { nameId: `00u-sesame-${stamp}`, email: `sesame-${stamp}@acme.test` };
  const page = await freshPage(browser);
  await page.goto(pageUrl);
  await throughIdp(page, "sesame-auth", pageUrl, nextUser.email);
  await expect
    .poll(async () => (await sesameEventsOf(page, "sesame-auth-success")).length, { timeout: 15_000 })
    .toBe(1);
  const [success] = await sesameEventsOf(page, "sesame-auth-success");
  expect(success!.detail).toMatchObject({ method: "ext:saml" });
  expect(await validateSession(page)).toMatchObject({ is_valid: true, claims: { amr: ["ext:saml"] } });
  await page.context().close();
});
