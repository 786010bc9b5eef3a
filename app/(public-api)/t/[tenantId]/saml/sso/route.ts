import { samlSso } from "@/lib/contracts/public/saml";
import { redirect, requestCookie, route } from "@/lib/http";
import { samlCookieName, startSamlSignIn } from "@/lib/saml";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/saml/sso?domain=…|idp_id=…&redirect_to=…: an AuthnRequest to the IdP (302), and the
// cookie that binds it to this browser
export const GET = route(samlSso, async ({ req, tenant, query, audit }) => {
  const start = await startSamlSignIn(
    tenant,
    {
      domain: query.domain,
      idpId: query.idp_id,
      redirectTo: query.redirect_to,
      browser: requestCookie(req, samlCookieName()),
    },
    audit,
  );
  return redirect(start.redirectUrl, [start.cookie]);
});
