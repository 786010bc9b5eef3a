import { passkeyProviderName, type Credential } from "@/lib/credentials";
import { Badge, EmptyState, Table, Td, Time } from "@/components/console/ui";
import { Section } from "./section";
import { RemoveCredentialButton } from "./user-actions";

/** The authenticator's mark: its initial in a tile (the AAGUID list Sesame carries has no icons). */
function AuthenticatorName({ aaguid }: { aaguid: string }) {
  const name = passkeyProviderName(aaguid);
  return (
    <span className="inline-flex items-center gap-2">
      <span
        aria-hidden="true"
        className="inline-flex size-6 shrink-0 items-center justify-center rounded bg-indigo-100 text-xs font-semibold text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200"
      >
        {name ? [...name][0]!.toUpperCase() : "?"}
      </span>
      <span>
        {name ?? "Unknown authenticator"}
        <span className="block font-mono text-[11px] text-slate-600 dark:text-slate-400">{aaguid}</span>
      </span>
    </span>
  );
}

function Backup({ credential }: { credential: Credential }) {
  if (credential.backupState) return <Badge tone="green">synced</Badge>;
  if (credential.backupEligible) return <Badge tone="amber">can sync, not backed up</Badge>;
  return <Badge>device-bound</Badge>;
}

/** Passkeys, or security keys (second factor): authenticator, name, dates (backup), remove. */
export function CredentialsSection({
  kind,
  tenantId,
  userId,
  credentials,
  canWrite,
}: {
  kind: "passkey" | "security key";
  tenantId: string;
  userId: string;
  credentials: Credential[];
  canWrite: boolean;
}) {
  const passkeys = kind === "passkey";
  return (
    <Section title={passkeys ? "Passkeys" : "Security keys (second factor)"} count={credentials.length}>
      {credentials.length === 0 ? (
        passkeys ? (
          <EmptyState
            title="No passkeys"
            description="They appear when the user registers one through the flow API."
          />
        ) : (
          <EmptyState
            title="No security keys"
            description="Registered as a second factor when the tenant has MFA on."
          />
        )
      ) : (
        <Table
          caption={passkeys ? "Passkeys" : "Security keys"}
          head={[
            "Authenticator",
            "Name",
            "Created",
            "Last used",
            ...(passkeys ? ["Backup"] : []),
            ...(canWrite ? ["Actions"] : []),
          ]}
        >
          {credentials.map((credential) => (
            <tr key={credential.id} data-testid={passkeys ? "passkey-row" : "security-key-row"}>
              <Td>
                <AuthenticatorName aaguid={credential.aaguid} />
              </Td>
              <Td className="break-all">{credential.name}</Td>
              <Td className="whitespace-nowrap">
                <Time value={credential.createdAt} />
              </Td>
              <Td className="whitespace-nowrap">
                <Time value={credential.lastUsedAt} />
              </Td>
              {passkeys ? (
                <Td>
                  <Backup credential={credential} />
                </Td>
              ) : null}
              {canWrite ? (
                <Td>
                  <RemoveCredentialButton
                    tenantId={tenantId}
                    userId={userId}
                    credentialId={credential.id}
                    kind={kind}
                    name={credential.name}
                  />
                </Td>
              ) : null}
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}
