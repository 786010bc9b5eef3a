import { headers } from "next/headers";
import { getConfig } from "@/lib/config";
import { isSameOriginNavigation } from "@/lib/hosted/navigation";
import { hostedPath, isHostedPage } from "@/lib/hosted/paths";
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
  hostedMetadata("logout", params, searchParams);

// GET /t/{tenant_id}/hosted/logout[?redirect_to=<url>][&lang=en|de]: ends the session, then "signed out"
// (or the redirect target, when it is one of the tenant's). Coming from another site, only after a click.
export default async function HostedLogoutPage({ params, searchParams }: Props) {
  const { tenant, branding, lang, langQuery, redirectTo, t } = await hostedPageContext(params, searchParams);
  // A refused redirect_to stays on the signed-out page; so does one back to this page (it would loop).
  const target = safeRedirect(tenant, redirectTo, "");
  // Any site can link here: sign out on load only when the navigation came from Sesame itself (or was typed).
  const sameOrigin = isSameOriginNavigation(await headers(), getConfig().baseUrl);
  return (
    <HostedShell
      lang={lang}
      style={branding.style}
      heading={branding.displayName}
      logoUrl={branding.logoUrl}
      logoAlt={branding.displayName}
      subtitle={t.logoutTitle}
    >
      <SesameHosted
        view="logout"
        tenantId={tenant.id}
        lang={lang}
        loginUrl={hostedPath(tenant.id, "login", { lang: langQuery })}
        redirectTo={target && !isHostedPage(target, tenant.id, "logout") ? target : null}
        askFirst={!sameOrigin}
      />
    </HostedShell>
  );
}
