import { startThirdPartyAuth } from "@/lib/contracts/public/thirdparty";
import { redirect, requestCookie, route } from "@/lib/http";
import { startThirdPartySignIn, thirdPartyCookieName } from "@/lib/thirdparty";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/thirdparty/auth?provider=…&redirect_to=… (deprecated): as GET /thirdparty/{provider}
export const GET = route(startThirdPartyAuth, async ({ req, tenant, query, audit }) => {
  const start = await startThirdPartySignIn(
    tenant,
    {
      // Hanko's SDK may send a display name ("Google"): names are matched lower-cased.
      provider: query.provider.toLowerCase(),
      redirectTo: query.redirect_to,
      browser: requestCookie(req, thirdPartyCookieName()),
      origin: "api",
    },
    audit,
  );
  return redirect(start.redirectUrl, [start.cookie]);
});
