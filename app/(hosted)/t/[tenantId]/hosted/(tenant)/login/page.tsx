import { hostedPath, isHostedPage, isOpenIdInteraction } from "@/lib/hosted/paths";
import { safeRedirect } from "@/lib/hosted/redirect";
import { HostedShell } from "../../_components/hosted-shell";
import { SesameHosted } from "../../_components/sesame-hosted";
import {
  hostedMetadata,
  hostedPageContext,
  type HostedParams,
  type HostedSearch,
} from "../../_components/page-context";

export const dynamic = "force-dynamic";

type Props = { params: HostedParams; searchParams: HostedSearch };

export const generateMetadata = ({ params, searchParams }: Props) =>
  hostedMetadata("login", params, searchParams);

// GET /t/{tenant_id}/hosted/login[?redirect_to=<url>][&lang=en|de]: sign in or sign up with <sesame-auth>
export default async function HostedLoginPage({ params, searchParams }: Props) {
  const { tenant, branding, lang, langQuery, redirectTo, loginHint, promptLogin } = await hostedPageContext(
    params,
    searchParams,
  );
  const fallback = hostedPath(tenant.id, "profile", { lang: langQuery });
  const target = safeRedirect(tenant, redirectTo, fallback);
  return (
    <HostedShell
      lang={lang}
      style={branding.style}
      heading={branding.displayName}
      logoUrl={branding.logoUrl}
      logoAlt={branding.displayName}
    >
      <SesameHosted
        view="login"
        tenantId={tenant.id}
        lang={lang}
        loginHint={loginHint}
        // An OpenID Connect sign-in arrives from another site, so without the SameSite=Strict session
        // cookie: a browser that has a session goes on at once, unless the client asked for a new login.
        continueSignedIn={!promptLogin && isOpenIdInteraction(target, tenant.id)}
        // Back to this very page would only show the login again: the profile instead. Never on to the
        // logout page, which would sign the user out without the click it asks of other sites.
        redirectTo={
          isHostedPage(target, tenant.id, "login") || isHostedPage(target, tenant.id, "logout")
            ? fallback
            : target
        }
      />
    </HostedShell>
  );
}
