import { samlAcs } from "@/lib/contracts/public/saml";
import { readFormBody, redirect, requestCookie, route } from "@/lib/http";
import { completeSamlSignIn, samlCookieName, SamlRedirectError } from "@/lib/saml";
import { errorRedirect } from "@/lib/thirdparty";

export const dynamic = "force-dynamic";

/** IdP responses with many group attributes outgrow the JSON bodies' 64 KiB. */
const MAX_FORM_BYTES = 768 * 1024;

// POST /t/{tenantId}/saml/acs: the IdP's response → redirect_to with hanko_token (or error). The binding
// cookie is not cleared: other tabs may have sign-ins under way with it (it expires with the requests).
export const POST = route(samlAcs, async ({ req, tenant, audit }) => {
  const form = await readFormBody(req, MAX_FORM_BYTES);
  try {
    const location = await completeSamlSignIn(
      tenant,
      { SAMLResponse: form.get("SAMLResponse") ?? undefined },
      requestCookie(req, samlCookieName()),
      audit,
    );
    return redirect(location);
  } catch (error) {
    if (error instanceof SamlRedirectError) return redirect(errorRedirect(error.redirectTo, error));
    throw error;
  }
});
