import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { queryAuditLogs } from "@/lib/audit-logs";
import { redactForRole } from "@/lib/console/event-data";
import { requireTenant } from "@/lib/console/guard";
import { passkeyProviderName, type Credential } from "@/lib/credentials";
import { AppError } from "@/lib/errors";
import { MAX_METADATA_CHARS, METADATA_KINDS } from "@/lib/metadata";
import { listSessionsOfUser, userAgentName } from "@/lib/sessions";
import { devicesOfUser } from "@/lib/uaf-requests";
import { getAdminUser } from "@/lib/accounts";
import { Badge, Card, Details, EmptyState, PageHeader, Table, Td, Time } from "@/components/console/ui";
import { MetadataEditor } from "./metadata-editor";
import { DeleteUserButton, RevokeAllSessionsButton, RevokeSessionButton } from "./user-actions";

export const metadata: Metadata = { title: "User" };

const RECENT_EVENTS = 20;

/** The user, or the not-found page for what the admin API answers 404 (unknown, Passkey API user). */
async function loadUser(tenantId: string, userId: string) {
  try {
    return await getAdminUser(tenantId, userId);
  } catch (error) {
    if (error instanceof AppError && error.code === "USER_NOT_FOUND") notFound();
    throw error;
  }
}

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

const none = (text: string) => <span className="text-slate-600 dark:text-slate-400">{text}</span>;

function Section({
  title,
  count,
  children,
  actions,
}: {
  title: string;
  count?: number;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900 dark:text-white">
          {title}
          {count !== undefined ? (
            <span className="ml-2 text-sm font-normal text-slate-600 dark:text-slate-400">({count})</span>
          ) : null}
        </h2>
        {actions}
      </div>
      {children}
    </Card>
  );
}

export default async function UserPage({
  params,
}: {
  params: Promise<{ tenantId: string; userId: string }>;
}) {
  const { tenantId, userId } = await params;
  const { tenant, operator } = await requireTenant(tenantId, "read");
  const admin = await loadUser(tenant.id, userId);
  const { user, emails, credentials, password, otp, identities } = admin;
  const [sessions, devices, audit] = await Promise.all([
    listSessionsOfUser(tenant.id, user.id),
    devicesOfUser(tenant.id, user.id),
    queryAuditLogs(tenant.id, { actorUserId: user.id }, { perPage: RECENT_EVENTS }),
  ]);
  const canWrite = operator.role !== "viewer";
  const primary = emails.find((email) => email.isPrimary);
  const passkeys = credentials.filter((credential) => !credential.isMfa);
  const securityKeys = credentials.filter((credential) => credential.isMfa);
  // Every kind ("{}" when unset), as the role may read it: private metadata may hold the application's
  // secrets about the user and is left out for viewers (lib/console/event-data.ts, the console's one rule).
  const visibleMetadata = redactForRole(
    operator.role,
    Object.fromEntries(METADATA_KINDS.map((kind) => [kind, admin.metadata[kind] ?? {}])),
  );
  const metadataText = Object.fromEntries(
    Object.entries(visibleMetadata).map(([kind, value]) => [kind, JSON.stringify(value, null, 2)]),
  ) as Partial<Record<(typeof METADATA_KINDS)[number], string>>;
  const base = `/console/tenants/${tenant.id}/users`;

  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link href={base} className="text-indigo-700 underline dark:text-indigo-300">
          ← All users
        </Link>
      </p>
      <PageHeader
        title={primary?.address ?? user.username ?? user.id}
        description={<span className="font-mono text-xs">{user.id}</span>}
        actions={
          canWrite ? (
            <DeleteUserButton
              tenantId={tenant.id}
              userId={user.id}
              confirmText={primary?.address ?? user.id}
            />
          ) : undefined
        }
      />

      <Section title="Profile">
        <Details
          items={[
            ["User id", <code key="id">{user.id}</code>],
            ["Username", user.username ?? none("none")],
            ["Name", user.name ?? none("none")],
            ["Created", <Time key="created" value={user.createdAt} />],
            ["Updated", <Time key="updated" value={user.updatedAt} />],
            [
              "Password",
              password ? (
                <span key="pw">
                  <Badge tone="green">set</Badge> changed <Time value={password.updatedAt} />
                </span>
              ) : (
                none("none")
              ),
            ],
            [
              "Authenticator app (OTP)",
              otp ? (
                <span key="otp">
                  <Badge tone="green">set up</Badge> on <Time value={otp.createdAt} />
                </span>
              ) : (
                none("none")
              ),
            ],
          ]}
        />
      </Section>

      <Section title="Emails" count={emails.length}>
        {emails.length === 0 ? (
          <EmptyState title="No email addresses" description="This user signs in with a username." />
        ) : (
          <Table caption="Email addresses" head={["Address", "Status", "Added"]}>
            {emails.map((email) => (
              <tr key={email.id}>
                <Td className="break-all">{email.address}</Td>
                <Td>
                  <span className="flex flex-wrap gap-1">
                    {email.isPrimary ? <Badge tone="indigo">primary</Badge> : null}
                    {email.verified ? (
                      <Badge tone="green">verified</Badge>
                    ) : (
                      <Badge tone="amber">unverified</Badge>
                    )}
                  </span>
                </Td>
                <Td className="whitespace-nowrap">
                  <Time value={email.createdAt} />
                </Td>
              </tr>
            ))}
          </Table>
        )}
      </Section>

      <Section title="Connected accounts" count={identities.length}>
        {identities.length === 0 ? (
          <EmptyState
            title="No connected accounts"
            description="They appear when the user signs in with a third-party provider or through SAML single sign-on."
          />
        ) : (
          <Table caption="Connected accounts" head={["Provider", "Account", "Email", "Connected"]}>
            {identities.map((identity) => (
              <tr key={identity.id} data-testid="identity-row">
                <Td>
                  {identity.kind === "saml" ? "SAML" : identity.providerId}{" "}
                  {identity.kind === "saml" ? <code className="text-xs">{identity.providerId}</code> : null}
                </Td>
                <Td className="break-all font-mono text-xs">{identity.subject}</Td>
                <Td className="break-all">
                  {identity.email ?? none("none")}{" "}
                  {identity.email ? (
                    identity.emailVerified ? (
                      <Badge tone="green">verified by provider</Badge>
                    ) : (
                      <Badge tone="amber">unverified</Badge>
                    )
                  ) : null}
                </Td>
                <Td className="whitespace-nowrap">
                  <Time value={identity.createdAt} />
                </Td>
              </tr>
            ))}
          </Table>
        )}
      </Section>

      <Section title="Passkeys" count={passkeys.length}>
        {passkeys.length === 0 ? (
          <EmptyState
            title="No passkeys"
            description="They appear when the user registers one through the flow API."
          />
        ) : (
          <CredentialTable caption="Passkeys" credentials={passkeys} backup />
        )}
      </Section>

      <Section title="Security keys (second factor)" count={securityKeys.length}>
        {securityKeys.length === 0 ? (
          <EmptyState
            title="No security keys"
            description="Registered as a second factor when the tenant has MFA on."
          />
        ) : (
          <CredentialTable caption="Security keys" credentials={securityKeys} />
        )}
      </Section>

      <Section title="UAF devices" count={devices.length}>
        {devices.length === 0 ? (
          <EmptyState title="No UAF devices" description="Registered through the Authenticator API." />
        ) : (
          <Table caption="UAF devices" head={["Key name", "AAID", "Device", "Created", "Last used"]}>
            {devices.map((device) => (
              <tr key={device.deviceId}>
                <Td className="break-all">{device.keyName}</Td>
                <Td className="font-mono text-xs">{device.aaid}</Td>
                <Td>
                  {[device.manufacturer, device.model, device.deviceOs, device.osVersion]
                    .filter(Boolean)
                    .join(" ") || none("unknown")}
                </Td>
                <Td className="whitespace-nowrap">
                  <Time value={device.createdAt} />
                </Td>
                <Td className="whitespace-nowrap">
                  <Time value={device.lastUsage} />
                </Td>
              </tr>
            ))}
          </Table>
        )}
      </Section>

      <Section
        title="Sessions"
        count={sessions.length}
        actions={
          canWrite && sessions.length > 0 ? (
            <RevokeAllSessionsButton tenantId={tenant.id} userId={user.id} />
          ) : undefined
        }
      >
        {sessions.length === 0 ? (
          <EmptyState title="No active sessions" description="The user is signed in nowhere." />
        ) : (
          <Table
            caption="Active sessions"
            head={[
              "IP address",
              "User agent",
              "Started",
              "Last seen",
              "Expires",
              ...(canWrite ? ["Actions"] : []),
            ]}
          >
            {sessions.map((session) => {
              const agent = session.userAgent ? userAgentName(session.userAgent) : undefined;
              return (
                <tr key={session.id} data-testid="session-row">
                  <Td className="font-mono text-xs">{session.ip ?? none("unknown")}</Td>
                  <Td>
                    <span title={session.userAgent ?? undefined}>{agent ?? none("unknown")}</span>
                    {session.impersonatedBy ? (
                      <span className="ml-2">
                        <Badge tone="amber">started by {session.impersonatedBy}</Badge>
                      </span>
                    ) : null}
                  </Td>
                  <Td className="whitespace-nowrap">
                    <Time value={session.createdAt} />
                  </Td>
                  <Td className="whitespace-nowrap">
                    <Time value={session.lastUsedAt} />
                  </Td>
                  <Td className="whitespace-nowrap">
                    <Time value={session.expiresAt} />
                  </Td>
                  {canWrite ? (
                    <Td>
                      <RevokeSessionButton
                        tenantId={tenant.id}
                        userId={user.id}
                        sessionId={session.id}
                        label={`${agent ?? "unknown client"} from ${session.ip ?? "an unknown address"}`}
                      />
                    </Td>
                  ) : null}
                </tr>
              );
            })}
          </Table>
        )}
      </Section>

      <Section title="Metadata">
        <MetadataEditor
          tenantId={tenant.id}
          userId={user.id}
          metadata={metadataText}
          maxChars={MAX_METADATA_CHARS}
          canWrite={canWrite}
        />
      </Section>

      <Section title="Recent activity" count={audit.total}>
        {audit.entries.length === 0 ? (
          <EmptyState
            title="No events by this user yet"
            description="Their logins, sign-ups and changes appear here."
          />
        ) : (
          <Table
            caption={`The user's last ${RECENT_EVENTS} audit events`}
            head={["When", "Event", "IP address", "Error"]}
          >
            {audit.entries.map((entry) => (
              <tr key={entry.id}>
                <Td className="whitespace-nowrap">
                  <Time value={entry.createdAt} />
                </Td>
                <Td className="font-mono text-xs">{entry.type}</Td>
                <Td className="font-mono text-xs">{entry.ip ?? ""}</Td>
                <Td>{entry.error ?? ""}</Td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </div>
  );
}

/** A user's passkeys or security keys: authenticator, name, created, last used (and backup state). */
function CredentialTable({
  caption,
  credentials,
  backup = false,
}: {
  caption: string;
  credentials: Credential[];
  backup?: boolean;
}) {
  return (
    <Table
      caption={caption}
      head={["Authenticator", "Name", "Created", "Last used", ...(backup ? ["Backup"] : [])]}
    >
      {credentials.map((credential) => (
        <tr key={credential.id}>
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
          {backup ? (
            <Td>
              <Backup credential={credential} />
            </Td>
          ) : null}
        </tr>
      ))}
    </Table>
  );
}
