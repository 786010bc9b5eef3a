// Third-party sign-in (OAuth 2.0 / OIDC). STUB by the lead: the thirdparty helper replaces the bodies
// (keep these signatures; the flow helper codes against them).
import type { AuditContext } from "@/lib/audit";
import type { Tenant } from "@/lib/tenants";

/** A provider as the flows and `.well-known/config` show it. */
export interface EnabledProvider {
  /** The name in URLs and the flow's `provider` input (`google`, `github`, `custom-acme`). */
  slug: string;
  displayName: string;
  kind: string;
}

/** The tenant's enabled providers, in a stable order (built-ins first, then custom by name). */
export async function listEnabledProviders(tenantId: string): Promise<EnabledProvider[]> {
  void tenantId;
  return [];
}

/** Where to send the browser, and the cookie that binds the `state` to it (HttpOnly, SameSite=Lax). */
export interface ThirdPartyStart {
  redirectUrl: string;
  cookie: { name: string; value: string; maxAgeSeconds: number; path: string };
}

/**
 * Starts an authorization at the provider: stores the single-use state (PKCE verifier, nonce, redirect_to,
 * and `linkUserId` when a signed-in user connects the provider), and answers the provider's authorization
 * URL. REDIRECT_NOT_ALLOWED when `redirectTo` is not allowed; THIRD_PARTY_PROVIDER_NOT_FOUND.
 */
export async function startThirdPartySignIn(
  tenant: Tenant,
  input: { provider: string; redirectTo: string; linkUserId?: string },
  context: AuditContext,
): Promise<ThirdPartyStart> {
  void tenant;
  void input;
  void context;
  throw new Error("not implemented yet");
}
