import {
  CallbackFields,
  thirdPartyCallback,
  thirdPartyCallbackPost,
} from "@/lib/contracts/public/thirdparty";
import { checkFormFields, readFormBody, redirect, requestCookie, route } from "@/lib/http";
import { finishThirdPartySignIn, thirdPartyCookieName } from "@/lib/thirdparty";

export const dynamic = "force-dynamic";

// The binding cookie is not cleared here: other tabs of the browser may have sign-ins under way with it
// (it expires with the states). GET /t/{tenantId}/thirdparty/callback: the provider's answer
export const GET = route(thirdPartyCallback, async ({ req, tenant, audit }) => {
  const params = new URL(req.url).searchParams;
  const finish = await finishThirdPartySignIn(
    tenant,
    { params, browser: requestCookie(req, thirdPartyCookieName()) },
    audit,
  );
  return redirect(finish.location);
});

// POST /t/{tenantId}/thirdparty/callback: the same answer as a form post (Apple's response_mode=form_post)
export const POST = route(thirdPartyCallbackPost, async ({ req, tenant, audit }) => {
  const params = await readFormBody(req);
  checkFormFields(CallbackFields, params);
  const finish = await finishThirdPartySignIn(
    tenant,
    { params, browser: requestCookie(req, thirdPartyCookieName()) },
    audit,
  );
  return redirect(finish.location);
});
