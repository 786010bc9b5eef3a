import { startThirdParty } from "@/lib/contracts/public/thirdparty";
import { redirect, requestCookie, route } from "@/lib/http";
import { startThirdPartySignIn, thirdPartyCookieName } from "@/lib/thirdparty";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/thirdparty/{provider}?redirect_to=…: binds the sign-in to this browser, then to the provider
export const GET = route(startThirdParty, async ({ req, tenant, params, query, audit }) => {
  const start = await startThirdPartySignIn(
    tenant,
    {
      // Hanko's SDK may send a display name ("Google"): names are matched lower-cased.
      provider: params.provider.toLowerCase(),
      redirectTo: query.redirect_to,
      browser: requestCookie(req, thirdPartyCookieName()),
      origin: "api",
    },
    audit,
  );
  return redirect(start.redirectUrl, [start.cookie]);
});
