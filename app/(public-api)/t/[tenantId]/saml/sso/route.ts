import { samlSso } from "@/lib/contracts/public/saml";
import { route } from "@/lib/http";
import { redirect } from "@/lib/http/form";
import { startSamlSignIn } from "@/lib/saml";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/saml/sso?domain=…|idp_id=…&redirect_to=…: an AuthnRequest to the IdP (302)
export const GET = route(samlSso, async ({ tenant, query, audit }) =>
  redirect(
    await startSamlSignIn(
      tenant,
      { domain: query.domain, idpId: query.idp_id, redirectTo: query.redirect_to },
      audit,
    ),
  ),
);
