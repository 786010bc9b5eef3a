import type { Metadata } from "next";
import { requireTenant } from "@/lib/console/guard";
import { listOAuthClients } from "@/lib/openid";
import { Badge, Card, EmptyState, PageHeader, Table, Td, Time } from "@/components/console/ui";
import { CreateClientButton, DeleteClientButton, RotateClientSecretButton } from "./clients-client";

export const metadata: Metadata = { title: "OAuth clients" };

/** The client's RFC 7591 registration (redirect URIs, scope): no user data, so no role rule applies. */
const registration = ({ metadata: registered }: { metadata: Record<string, unknown> }) => registered;

const strings = (value: unknown) =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];

export default async function OAuthClientsPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  const { tenant, operator } = await requireTenant(tenantId, "read");
  const canWrite = operator.role !== "viewer";
  const { clients } = await listOAuthClients(tenant.id, { page: 1, perPage: 100 });

  return (
    <div className="space-y-8">
      <PageHeader
        title="OAuth clients"
        description="Apps that sign their users in with Sesame through OpenID Connect (the tenant is their OpenID Provider)."
        actions={canWrite ? <CreateClientButton tenantId={tenant.id} /> : undefined}
      />
      <Card title="Clients">
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
          Issuer: <code className="text-xs break-all">/t/{tenant.id}</code> (discovery at{" "}
          <code className="text-xs break-all">/t/{tenant.id}/.well-known/openid-configuration</code>).
        </p>
        {clients.length === 0 ? (
          <EmptyState
            title="No OAuth clients yet"
            description={
              canWrite
                ? "Create one for each app: Grafana, GitLab, an Auth.js app, oauth2-proxy…"
                : "An admin of this tenant can create one."
            }
          />
        ) : (
          <Table
            caption="OAuth clients"
            head={[
              "Name",
              "Client ID",
              "Type",
              "Redirect URIs",
              "Scopes",
              "Created",
              ...(canWrite ? ["Actions"] : []),
            ]}
          >
            {clients.map((client) => (
              <tr key={client.clientId} data-testid="oauth-client-row">
                <Td className="font-medium text-slate-900 dark:text-white">
                  {client.name ?? "—"} {client.firstParty ? <Badge tone="indigo">first-party</Badge> : null}
                </Td>
                <Td>
                  <code className="text-xs break-all">{client.clientId}</code>
                </Td>
                <Td>{client.confidential ? "confidential" : "public (PKCE)"}</Td>
                <Td>
                  <ul className="space-y-1">
                    {strings(registration(client).redirect_uris).map((uri) => (
                      <li key={uri}>
                        <code className="text-xs break-all">{uri}</code>
                      </li>
                    ))}
                  </ul>
                </Td>
                <Td>
                  {typeof registration(client).scope === "string"
                    ? String(registration(client).scope)
                    : "all"}
                </Td>
                <Td className="whitespace-nowrap">
                  <Time value={client.createdAt} />
                </Td>
                {canWrite ? (
                  <Td>
                    <div className="flex flex-wrap gap-2">
                      {client.confidential ? (
                        <RotateClientSecretButton tenantId={tenant.id} clientId={client.clientId} />
                      ) : null}
                      <DeleteClientButton
                        tenantId={tenant.id}
                        clientId={client.clientId}
                        name={client.name ?? client.clientId}
                      />
                    </div>
                  </Td>
                ) : null}
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </div>
  );
}
