import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getAdminUser } from "@/lib/accounts";
import { queryAuditLogs } from "@/lib/audit-logs";
import { redactForRole } from "@/lib/console/event-data";
import { requireTenant } from "@/lib/console/guard";
import { AppError } from "@/lib/errors";
import { MAX_METADATA_CHARS, METADATA_KINDS } from "@/lib/metadata";
import { listSessionsOfUser } from "@/lib/sessions";
import { devicesOfUser } from "@/lib/uaf-requests";
import { Badge, PageHeader } from "@/components/console/ui";
import { ActivitySection } from "./activity-section";
import { DevicesSection, IdentitiesSection } from "./connections-section";
import { CredentialsSection } from "./credentials-section";
import { EmailsSection } from "./emails-section";
import { MetadataEditor } from "./metadata-editor";
import { ProfileSection } from "./profile-section";
import { Section } from "./section";
import { SessionsSection } from "./sessions-section";
import { DeleteUserButton, LockUserButton } from "./user-actions";

export const metadata: Metadata = { title: "User" };

/** Shown in "Recent activity"; read from the last events of the user, of which flow steps are left out. */
const RECENT_ACTIVITY = 20;
const EVENTS_READ = 100;

/** The user, or the not-found page for what the admin API answers 404 (unknown, Passkey API user). */
async function loadUser(tenantId: string, userId: string) {
  try {
    return await getAdminUser(tenantId, userId);
  } catch (error) {
    if (error instanceof AppError && error.code === "USER_NOT_FOUND") notFound();
    throw error;
  }
}

export default async function UserPage({
  params,
}: {
  params: Promise<{ tenantId: string; userId: string }>;
}) {
  const { tenantId, userId } = await params;
  const { tenant, operator } = await requireTenant(tenantId, "read");
  const admin = await loadUser(tenant.id, userId);
  const { user, emails, credentials } = admin;
  const [sessions, devices, audit] = await Promise.all([
    listSessionsOfUser(tenant.id, user.id),
    devicesOfUser(tenant.id, user.id),
    queryAuditLogs(tenant.id, { actorUserId: user.id }, { perPage: EVENTS_READ }),
  ]);
  const canWrite = operator.role !== "viewer";
  const primary = emails.find((email) => email.isPrimary);
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
  const own = { tenantId: tenant.id, userId: user.id, canWrite };

  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link href={base} className="text-indigo-700 underline dark:text-indigo-300">
          ← All users
        </Link>
      </p>
      <PageHeader
        title={primary?.address ?? user.username ?? user.id}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-xs">{user.id}</span>
            {user.lockedAt ? <Badge tone="red">locked</Badge> : null}
          </span>
        }
        actions={
          canWrite ? (
            <span className="flex flex-wrap gap-2">
              <LockUserButton tenantId={tenant.id} userId={user.id} locked={Boolean(user.lockedAt)} />
              <DeleteUserButton
                tenantId={tenant.id}
                userId={user.id}
                confirmText={primary?.address ?? user.id}
              />
            </span>
          ) : undefined
        }
      />
      <ProfileSection
        tenantId={tenant.id}
        admin={admin}
        canWrite={canWrite}
        usernamesEnabled={tenant.platform.username.enabled}
      />
      <EmailsSection {...own} emails={emails} />
      <IdentitiesSection identities={admin.identities} />
      <CredentialsSection {...own} kind="passkey" credentials={credentials.filter((c) => !c.isMfa)} />
      <CredentialsSection {...own} kind="security key" credentials={credentials.filter((c) => c.isMfa)} />
      <DevicesSection devices={devices} />
      <SessionsSection {...own} sessions={sessions} />
      <Section title="Metadata">
        <MetadataEditor
          tenantId={tenant.id}
          userId={user.id}
          metadata={metadataText}
          maxChars={MAX_METADATA_CHARS}
          canWrite={canWrite}
        />
      </Section>
      <ActivitySection entries={audit.entries} limit={RECENT_ACTIVITY} />
    </div>
  );
}
