import { hostedPath } from "@/lib/hosted/paths";
import { ConnectedApps } from "../../_components/connected-apps";
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
  hostedMetadata("profile", params, searchParams);

// GET /t/{tenant_id}/hosted/profile[?lang=en|de]: <sesame-profile>; without a session, the hosted login
export default async function HostedProfilePage({ params, searchParams }: Props) {
  const { tenant, branding, lang, langQuery } = await hostedPageContext(params, searchParams);
  const self = hostedPath(tenant.id, "profile", { lang: langQuery });
  return (
    <HostedShell
      lang={lang}
      style={branding.style}
      heading={branding.displayName}
      logoUrl={branding.logoUrl}
      logoAlt={branding.displayName}
    >
      <SesameHosted
        view="profile"
        tenantId={tenant.id}
        lang={lang}
        loginUrl={hostedPath(tenant.id, "login", { redirect_to: self, lang: langQuery })}
        logoutUrl={hostedPath(tenant.id, "logout", { lang: langQuery })}
      />
      <ConnectedApps tenantId={tenant.id} lang={lang} />
    </HostedShell>
  );
}
