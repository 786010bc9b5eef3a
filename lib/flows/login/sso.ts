import type { FlowContext } from "@/lib/flows/definition";
import { REDIRECT_URL } from "@/lib/flows/shared/thirdparty";
import { findEnabledProviderForDomain, serviceProviderUrls } from "@/lib/saml";

/**
 * SAML routing: an address whose domain an enabled SAML identity provider of the tenant serves goes to
 * Sesame's SAML start (`{tenant_url}/saml/sso?domain=…&redirect_to=…`) through the `thirdparty` state,
 * before any account lookup (the IdP's users are created on their first sign-in). Hanko returns to a
 * configured default URL; Sesame returns to the page the request came from (`Referer`: the full URL on
 * the same origin, or when the client asks for it, as `<sesame-auth>` does), else the tenant's first
 * origin. The SAML start checks it against the tenant's allowed origins.
 */
export async function routeToSso(
  ctx: FlowContext,
  address: string,
): Promise<{ to: "thirdparty" } | undefined> {
  const at = address.lastIndexOf("@");
  if (at < 0) return undefined;
  const domain = address.slice(at + 1).toLowerCase();
  if (!domain) return undefined;
  const provider = await findEnabledProviderForDomain(ctx.tenant.id, domain);
  if (!provider) return undefined;
  const returnTo = ctx.referer ?? ctx.tenant.origins[0];
  const query = new URLSearchParams({ domain, ...(returnTo ? { redirect_to: returnTo } : {}) });
  ctx.stash[REDIRECT_URL] = `${serviceProviderUrls(ctx.tenant.id).ssoUrl}?${query}`;
  return { to: "thirdparty" };
}
