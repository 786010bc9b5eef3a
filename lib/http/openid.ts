import { answerOpenid, continueInteraction, decideConsent } from "@/lib/openid";
import { findTenant } from "@/lib/tenants";
import { requestContext } from "@/lib/request/context";
import { withClearedSessionCookie } from "./session-headers";

type Context = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * A route handler answering the tenant's OpenID Provider endpoints with oidc-provider (lib/openid). Not a
 * contract route: oidc-provider parses, authenticates and presents every answer in the OAuth 2.0 wire
 * format itself. An unknown tenant is a 404.
 */
export function openidRoute() {
  return async (request: Request, { params }: Context): Promise<Response> => {
    const { tenantId } = await params;
    const tenant = typeof tenantId === "string" ? await findTenant(tenantId) : undefined;
    if (!tenant)
      return Response.json({ error: "not_found", error_description: "unknown tenant" }, { status: 404 });
    const context = requestContext(request);
    const { response, endedSession } = await answerOpenid(tenant, request, context);
    return endedSession ? withClearedSessionCookie(response, tenant) : response;
  };
}

/** The interaction route: GET continues a paused authorization, POST takes the consent decision. */
export function openidInteractionRoute(kind: "continue" | "decide") {
  return async (request: Request, { params }: Context): Promise<Response> => {
    const { tenantId, uid } = await params;
    const tenant = typeof tenantId === "string" ? await findTenant(tenantId) : undefined;
    if (!tenant || typeof uid !== "string") {
      return Response.json({ error: "not_found", error_description: "unknown tenant" }, { status: 404 });
    }
    const context = requestContext(request);
    return kind === "continue"
      ? continueInteraction(tenant, request, uid, context)
      : decideConsent(tenant, request, uid, context);
  };
}
