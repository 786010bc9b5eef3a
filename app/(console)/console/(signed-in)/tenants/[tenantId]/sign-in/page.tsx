import type { Metadata } from "next";
import type { ReactNode } from "react";
import { CopyButton } from "@/components/console/client";
import { Badge, Card, EmptyState, PageHeader, Table, Td, Time } from "@/components/console/ui";
import { requireTenant } from "@/lib/console/guard";
import { listSamlProviders, serviceProviderUrls } from "@/lib/saml";
import { callbackUrl, listProviders } from "@/lib/thirdparty";

export const metadata: Metadata = { title: "Sign-in providers" };

function UrlToCopy({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-slate-600 dark:text-slate-400">{label}</span>
      <code className="break-all rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">{value}</code>
      <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <h2 className="mb-4 text-base font-semibold text-slate-900 dark:text-white">{title}</h2>
      <div className="space-y-4">{children}</div>
    </Card>
  );
}

const onOff = (on: boolean, yes: string, no: string) =>
  on ? <Badge tone="green">{yes}</Badge> : <Badge>{no}</Badge>;

/**
 * The tenant's third-party (OAuth 2.0 / OIDC) providers and SAML identity providers, and the URLs to
 * register at them. Read-only: they are configured with the admin API or the CLI (docs/third-party.md,
 * docs/saml.md); secrets are never shown (nor kept readable).
 */
export default async function SignInProvidersPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  const { tenant } = await requireTenant(tenantId, "read");
  const [providers, idps] = await Promise.all([listProviders(tenant.id), listSamlProviders(tenant.id)]);
  const sp = serviceProviderUrls(tenant.id);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Sign-in providers"
        description="Sign in with Google, GitHub and other providers, and enterprise single sign-on by email domain. Configure them with the admin API or the CLI (npm run sesame -- thirdparty … / saml …)."
      />

      <Section title="Third-party providers (OAuth 2.0 / OpenID Connect)">
        <UrlToCopy label="Redirect URL" value={callbackUrl(tenant.id)} />
        {providers.length === 0 ? (
          <EmptyState
            title="No third-party providers"
            description="Add one with npm run sesame -- thirdparty add --tenant <id> --kind google … or POST /admin/thirdparty/providers (docs/third-party.md)."
          />
        ) : (
          <Table
            caption="Third-party providers"
            head={["Provider", "Kind", "Client id", "State", "Linking by email", "Updated"]}
          >
            {providers.map((provider) => (
              <tr key={provider.id} data-testid="provider-row">
                <Td>
                  <span className="font-medium">{provider.displayName}</span>{" "}
                  <code className="text-xs">{provider.slug}</code>
                </Td>
                <Td>{provider.kind}</Td>
                <Td className="break-all font-mono text-xs">{provider.clientId}</Td>
                <Td>{onOff(provider.enabled, "enabled", "disabled")}</Td>
                <Td>{onOff(provider.allowLinking, "verified email", "off")}</Td>
                <Td className="whitespace-nowrap">
                  <Time value={provider.updatedAt} />
                </Td>
              </tr>
            ))}
          </Table>
        )}
      </Section>

      <Section title="SAML single sign-on">
        <UrlToCopy label="SP metadata URL" value={sp.entityId} />
        <UrlToCopy label="ACS URL" value={sp.acsUrl} />
        {idps.length === 0 ? (
          <EmptyState
            title="No SAML identity providers"
            description="Add one with npm run sesame -- saml add --tenant <id> … or POST /admin/saml/providers (docs/saml.md)."
          />
        ) : (
          <Table
            caption="SAML identity providers"
            head={["Identity provider", "Email domains", "State", "Signed requests", "Updated"]}
          >
            {idps.map((idp) => (
              <tr key={idp.id} data-testid="saml-provider-row">
                <Td>
                  <span className="font-medium">{idp.name}</span>
                  <span className="block break-all font-mono text-[11px] text-slate-600 dark:text-slate-400">
                    {idp.entityId}
                  </span>
                </Td>
                <Td className="break-all">{idp.domains.join(", ")}</Td>
                <Td>
                  {onOff(idp.enabled, "enabled", "disabled")}
                  {idp.pendingCertificates.length > 0 ? (
                    <span className="block text-[11px] text-amber-700 dark:text-amber-400">
                      new certificates await confirmation
                    </span>
                  ) : null}
                </Td>
                <Td>{onOff(idp.signRequests, "signed", "unsigned")}</Td>
                <Td className="whitespace-nowrap">
                  <Time value={idp.updatedAt} />
                </Td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </div>
  );
}
