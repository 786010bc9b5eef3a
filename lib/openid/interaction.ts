import type { Interaction } from "oidc-provider";
import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { getConfig } from "@/lib/config";
import type { Tenant } from "@/lib/tenants";
import { acrOf, rfc8176Amr } from "./account";
import { bridge } from "./node-bridge";
import { escapeHtml, pageHtml } from "./pages";
import { browserSession, interactionPath, providerFor } from "./provider";
import { sha256Hex } from "@/lib/crypto";
import { findClientRow, findConsent, findModel, upsertConsent } from "./store";
import { emitConsentEvent } from "./events";

/** When the authorization paused: a sign-in it asks to be new must be later. */
async function interactionStartedAt(tenantId: string, uid: string): Promise<Date | undefined> {
  return (await findModel(tenantId, "Interaction", sha256Hex(uid)))?.createdAt;
}

const SCOPE_TEXT: Record<string, string> = {
  openid: "Sign you in with your account",
  profile: "See your name and username",
  email: "See your email address",
  offline_access: "Stay signed in when you are away (refresh tokens)",
};

/** Reasons the login prompt gives that need a sign-in newer than the authorization request. */
const FRESH_LOGIN = new Set(["login_prompt", "max_age"]);

const redirect = (location: string, headers?: Headers) => {
  const response = new Response(null, { status: 303, headers });
  response.headers.set("location", location);
  response.headers.set("cache-control", "no-store");
  response.headers.set("referrer-policy", "no-referrer");
  return response;
};

const page = (status: number, title: string, body: string) =>
  new Response(pageHtml(title, body), {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    },
  });

/** The interaction the browser's cookie names, when it is `uid`; the bridge to answer it with. */
async function interactionOf(tenant: Tenant, request: Request, uid: string) {
  const provider = await providerFor(tenant);
  const url = new URL(request.url);
  const { req, res } = await bridge(request, {
    url: url.pathname.slice(`/t/${tenant.id}`.length),
    originalUrl: url.pathname,
    origin: getConfig().baseUrl,
    ip: undefined,
  });
  try {
    const details = await provider.interactionDetails(req, res);
    return details.uid === uid ? { provider, details, req, res } : undefined;
  } catch {
    return undefined;
  }
}

const expired = () =>
  page(
    400,
    "Sign-in expired",
    "<h1>This sign-in has expired</h1><p>Go back to the application and sign in again.</p>",
  );

/**
 * GET of an interaction: oidc-provider paused an authorization for a login or a consent.
 *
 * - login: with a live Sesame session in this browser (new enough when `prompt=login` or `max_age` ask
 *   for it) the authorization continues with that user; else the browser goes to the tenant's hosted
 *   login page, which comes back here when the user has signed in. The sign-in is the hosted login's.
 * - consent: a first-party client gets what it asked for; else the consent page.
 */
export async function continueInteraction(
  tenant: Tenant,
  request: Request,
  uid: string,
  context: AuditContext,
): Promise<Response> {
  const found = await interactionOf(tenant, request, uid);
  if (!found) return expired();
  const { provider, details, req, res } = found;
  const valid = await browserSession(tenant, request.headers.get("cookie") ?? undefined);

  if (details.prompt.name === "login") {
    const fresh = details.prompt.reasons.some((reason) => FRESH_LOGIN.has(reason));
    const startedAt = fresh ? await interactionStartedAt(tenant.id, uid) : undefined;
    if (valid && (!startedAt || valid.session.createdAt.getTime() > startedAt.getTime())) {
      const returnTo = await provider.interactionResult(
        req,
        res,
        {
          login: {
            accountId: valid.user.id,
            ts: valid.claims.iat,
            amr: rfc8176Amr(valid.claims.amr),
            acr: acrOf(valid.claims.amr),
            remember: true,
          },
        },
        { mergeWithLastSubmission: false },
      );
      return redirect(returnTo);
    }
    const login = new URLSearchParams({ redirect_to: interactionPath(tenant.id, uid) });
    const hint = details.params.login_hint;
    if (typeof hint === "string" && hint.length <= 256) login.set("login_hint", hint);
    const locale =
      typeof details.params.ui_locales === "string" ? details.params.ui_locales.split(" ")[0] : undefined;
    if (locale === "en" || locale === "de") login.set("lang", locale);
    // A new login was asked for (prompt=login, max_age): the hosted login must not go on with the session.
    if (fresh) login.set("prompt", "login");
    return redirect(`/t/${tenant.id}/hosted/login?${login}`);
  }

  if (details.prompt.name === "consent") {
    const accountId = details.session?.accountId;
    if (!valid || !accountId || valid.user.id !== accountId) return expired();
    const clientId = String(details.params.client_id);
    const client = await findClientRow(tenant.id, clientId);
    if (!client) return expired();
    const missing = missingScopes(details);
    if (client.firstParty) return finishConsent(tenant, found, accountId, clientId, missing, context);
    const name = typeof client.metadata.client_name === "string" ? client.metadata.client_name : clientId;
    const list = missing.map((scope) => `<li>${escapeHtml(SCOPE_TEXT[scope] ?? scope)}</li>`).join("");
    return page(
      200,
      "Allow access?",
      `<h1>${escapeHtml(name)}</h1><p>wants to:</p><ul>${list}</ul>` +
        `<form method="post" action="${escapeHtml(interactionPath(tenant.id, uid))}">` +
        `<button type="submit" name="decision" value="allow" autofocus>Allow</button>` +
        `<button type="submit" name="decision" value="deny">Deny</button></form>`,
    );
  }
  return expired();
}

function missingScopes(details: Interaction): string[] {
  const missing = details.prompt.details.missingOIDCScope;
  return Array.isArray(missing) ? missing.map(String) : [];
}

async function finishConsent(
  tenant: Tenant,
  found: NonNullable<Awaited<ReturnType<typeof interactionOf>>>,
  accountId: string,
  clientId: string,
  scopes: string[],
  context: AuditContext,
): Promise<Response> {
  const { provider, details, req, res } = found;
  // The grant holds everything the request asked for: the scopes shown on the page (missing) and those
  // the session's grant, a remembered consent or the first-party rule already covered.
  const grant =
    (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
    new provider.Grant({ accountId, clientId });
  const requested = typeof details.params.scope === "string" ? details.params.scope.split(" ") : [];
  grant.addOIDCScope([...new Set([...requested, ...scopes])].join(" "));
  const resources = details.prompt.details.missingResourceScopes;
  if (resources && typeof resources === "object") {
    for (const [resource, list] of Object.entries(resources as Record<string, string[]>)) {
      grant.addResourceScope(resource, list.join(" "));
    }
  }
  const claims = details.prompt.details.missingOIDCClaims;
  if (Array.isArray(claims) && claims.length > 0) grant.addOIDCClaims(claims.map(String));
  const grantId = await grant.save();
  const previous = (await findConsent(tenant.id, accountId, clientId))?.scopes ?? [];
  const all = [...new Set([...previous, ...scopes])];
  await transaction(async () => {
    await upsertConsent(tenant.id, accountId, clientId, all);
    await recordAuditEvent(tenant.id, {
      ...context,
      actor: accountId,
      type: "oauth.consent.granted",
      details: { clientId, scopes: all },
    });
    await emitConsentEvent(tenant.id, "oauth_consent.grant", { userId: accountId, clientId, scopes: all });
  });
  const returnTo = await provider.interactionResult(
    req,
    res,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
  return redirect(returnTo);
}

/**
 * POST of the consent page: `decision=allow` grants the missing scopes (remembered for the user and
 * client), `deny` ends the authorization with `access_denied`. Only the browser holding the interaction
 * cookie (SameSite=Lax, so no cross-site form), signed in as the interaction's user, decides.
 */
export async function decideConsent(
  tenant: Tenant,
  request: Request,
  uid: string,
  context: AuditContext,
): Promise<Response> {
  const form = await request
    .clone()
    .formData()
    .catch(() => undefined);
  const decision = form?.get("decision");
  if (decision !== "allow" && decision !== "deny") {
    return page(400, "Invalid request", "<h1>Invalid request</h1><p>decision must be allow or deny.</p>");
  }
  const found = await interactionOf(tenant, request, uid);
  if (!found || found.details.prompt.name !== "consent") return expired();
  const accountId = found.details.session?.accountId;
  const valid = await browserSession(tenant, request.headers.get("cookie") ?? undefined);
  if (!accountId || valid?.user.id !== accountId) return expired();
  const clientId = String(found.details.params.client_id);
  if (decision === "allow") {
    return finishConsent(tenant, found, accountId, clientId, missingScopes(found.details), context);
  }
  await recordAuditEvent(tenant.id, {
    ...context,
    actor: accountId,
    type: "oauth.consent.denied",
    details: { clientId },
  });
  const returnTo = await found.provider.interactionResult(
    found.req,
    found.res,
    { error: "access_denied", error_description: "End-User denied the authorization" },
    { mergeWithLastSubmission: false },
  );
  return redirect(returnTo);
}
