import type { Metadata } from "next";
import { listApiKeys } from "@/lib/api-keys";
import { requireTenant } from "@/lib/console/guard";
import { listSigningKeys } from "@/lib/tenants";
import { Badge, Card, EmptyState, PageHeader, Table, Td, Time } from "@/components/console/ui";
import { CreateKeyButton, RevokeKeyButton, RotateSigningKeyButton } from "./keys-client";

export const metadata: Metadata = { title: "API & signing keys" };

export default async function KeysPage({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  const { tenant, operator } = await requireTenant(tenantId, "read");
  const canWrite = operator.role !== "viewer";
  const [keys, signingKeys] = await Promise.all([listApiKeys(tenant.id), listSigningKeys(tenant.id)]);

  return (
    <div className="space-y-8">
      <PageHeader
        title="API & signing keys"
        description="API keys let your servers call Sesame; signing keys sign the session tokens your apps verify."
        actions={canWrite ? <CreateKeyButton tenantId={tenant.id} /> : undefined}
      />

      <Card title="API keys">
        {keys.length === 0 ? (
          <EmptyState
            title="No API keys yet"
            description={
              canWrite
                ? "Create one for your backend: the admin scope for the admin API, passkey for the Passkey API, authenticator for the Authenticator API."
                : "An admin of this tenant can create one."
            }
          />
        ) : (
          <Table
            caption="API keys"
            head={[
              "Name",
              "Prefix",
              "Scopes",
              "Created",
              "Last used",
              "Status",
              ...(canWrite ? ["Actions"] : []),
            ]}
          >
            {keys.map((key) => (
              <tr key={key.id} data-testid="api-key-row">
                <Td className="font-medium text-slate-900 dark:text-white">{key.name}</Td>
                <Td>
                  <code className="text-xs whitespace-nowrap">{key.prefix}…</code>
                </Td>
                <Td>
                  <div className="flex flex-wrap gap-1">
                    {key.scopes.map((scope) => (
                      <Badge key={scope} tone="indigo">
                        {scope}
                      </Badge>
                    ))}
                  </div>
                </Td>
                <Td className="whitespace-nowrap">
                  <Time value={key.createdAt} />
                </Td>
                <Td className="whitespace-nowrap">
                  <Time value={key.lastUsedAt} />
                </Td>
                <Td className="whitespace-nowrap">
                  {key.revokedAt ? (
                    <Badge tone="red">
                      Revoked <Time value={key.revokedAt} />
                    </Badge>
                  ) : (
                    <Badge tone="green">Active</Badge>
                  )}
                </Td>
                {canWrite ? (
                  <Td>
                    {key.revokedAt ? null : (
                      <RevokeKeyButton
                        tenantId={tenant.id}
                        keyId={key.id}
                        name={key.name}
                        prefix={key.prefix}
                      />
                    )}
                  </Td>
                ) : null}
              </tr>
            ))}
          </Table>
        )}
      </Card>

      <Card title="Signing keys">
        <div className="mb-4 flex flex-wrap items-start justify-between gap-4">
          <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-400">
            The active key signs new session tokens. Earlier keys stay published in the tenant&apos;s JWKS (
            <code className="text-xs break-all">/t/{tenant.id}/.well-known/jwks.json</code>), so the tokens
            they signed keep verifying until they expire.
          </p>
          {canWrite ? <RotateSigningKeyButton tenantId={tenant.id} /> : null}
        </div>
        {signingKeys.length === 0 ? (
          <EmptyState
            title="No signing keys"
            description="Rotate to create the tenant's first signing key."
          />
        ) : (
          <Table caption="Signing keys" head={["Key ID (kid)", "Algorithm", "Status", "Created", "Retired"]}>
            {signingKeys.map((key) => (
              <tr key={key.kid} data-testid="signing-key-row">
                <Td>
                  <code className="text-xs break-all">{key.kid}</code>
                </Td>
                <Td>{key.algorithm}</Td>
                <Td>{key.active ? <Badge tone="green">Active</Badge> : <Badge>Retired</Badge>}</Td>
                <Td className="whitespace-nowrap">
                  <Time value={key.createdAt} />
                </Td>
                <Td className="whitespace-nowrap">{key.retiredAt ? <Time value={key.retiredAt} /> : "—"}</Td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </div>
  );
}
