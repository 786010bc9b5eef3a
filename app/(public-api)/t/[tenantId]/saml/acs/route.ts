import { samlAcs } from "@/lib/contracts/public/saml";
import { route } from "@/lib/http";
import { readFormBody, redirect } from "@/lib/http/form";
import { completeSamlSignIn, errorRedirectUrl, SamlRedirectError } from "@/lib/saml";

export const dynamic = "force-dynamic";

/** IdP responses with many group attributes outgrow the JSON bodies' 64 KiB. */
const MAX_FORM_BYTES = 768 * 1024;

// POST /t/{tenantId}/saml/acs: the IdP's response → redirect_to with hanko_token (or error)
export const POST = route(samlAcs, async ({ req, tenant, audit }) => {
  const form = await readFormBody(req, MAX_FORM_BYTES);
  try {
    const location = await completeSamlSignIn(
      tenant,
      {
        SAMLResponse: form.get("SAMLResponse") ?? undefined,
        RelayState: form.get("RelayState") ?? undefined,
      },
      audit,
    );
    return redirect(location, 302);
  } catch (error) {
    if (error instanceof SamlRedirectError) return redirect(errorRedirectUrl(error.redirectTo, error), 303);
    throw error;
  }
});
