import type { AuditContext } from "@/lib/audit";
import { getConfig } from "@/lib/config";
import { endSession } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { pendingAudit } from "./audit";
import { bridge } from "./node-bridge";
import { browserSession, OPENID_ROUTES, providerFor } from "./provider";

export interface OpenidAnswer {
  response: Response;
  /** RP-initiated logout ended the browser's Sesame session: the caller clears its cookie. */
  endedSession: boolean;
}

type Provider = Awaited<ReturnType<typeof providerFor>>;
const handlers = new WeakMap<Provider, ReturnType<Provider["callback"]>>();

/** The provider's Koa request handler, composed once per Provider rather than per request. */
function handlerOf(provider: Provider) {
  let handler = handlers.get(provider);
  if (!handler) handlers.set(provider, (handler = provider.callback()));
  return handler;
}

/** The path below the issuer: `/t/{tenant}/oauth/token` → `/oauth/token`. */
function pathBelowIssuer(tenant: Tenant, url: URL): string {
  const prefix = `/t/${tenant.id}`;
  return url.pathname.toLowerCase().startsWith(prefix)
    ? url.pathname.slice(prefix.length) || "/"
    : url.pathname;
}

/**
 * Answers a request for one of the tenant's OpenID Provider endpoints (discovery, JWKS, authorization,
 * token, userinfo, registration, revocation, introspection, logout) with oidc-provider. Every URL it
 * builds is on `SESAME_BASE_URL`, whatever Host the request named.
 */
export async function answerOpenid(
  tenant: Tenant,
  request: Request,
  context: AuditContext,
): Promise<OpenidAnswer> {
  const url = new URL(request.url);
  const path = pathBelowIssuer(tenant, url);
  const loggingOut =
    request.method === "POST" &&
    path === `${OPENID_ROUTES.end_session}/confirm` &&
    (await request
      .clone()
      .formData()
      .then((form) => form.get("logout") === "yes")
      .catch(() => false));
  const provider = await providerFor(tenant);
  const { req, res, response } = await bridge(request, {
    url: `${path}${url.search}`,
    originalUrl: `${url.pathname}${url.search}`,
    origin: getConfig().baseUrl,
    ip: context.ip ?? undefined,
  });
  handlerOf(provider)(req, res);
  const answer = await response;
  await pendingAudit(req);
  // Pages carrying codes or tokens (form_post, errors) never leak their URL to another site (RFC 9700 §4.2.4).
  answer.headers.set("referrer-policy", "no-referrer");
  let endedSession = false;
  if (loggingOut && answer.status === 303) {
    const valid = await browserSession(tenant, request.headers.get("cookie") ?? undefined);
    if (valid) {
      await endSession(tenant, valid.session, { ...context, actor: valid.user.id });
      endedSession = true;
    }
  }
  return { response: answer, endedSession };
}
