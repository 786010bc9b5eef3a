import { signUp } from "@/lib/contracts/public/users";
import { json, preflight, route, withSessionHeaders } from "@/lib/http";
import { signUpWithEmail } from "@/lib/accounts";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/users (deprecated): sign up with an email address
export const POST = route(signUp, async ({ tenant, body, audit }) => {
  const { body: created, session } = await signUpWithEmail(tenant, body, audit);
  const response = json(created);
  return session ? withSessionHeaders(response, tenant, session.token) : response;
});
export const OPTIONS = preflight(signUp);
