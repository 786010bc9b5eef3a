"use client";

import { useRouter } from "next/navigation";
import { ConfirmDialog, useConsoleAction } from "@/components/console/client";
import { deleteUser, revokeAllSessions, revokeSession } from "../actions";

/** Deletes the user after the operator typed its primary email (or its id when it has none). */
export function DeleteUserButton({
  tenantId,
  userId,
  confirmText,
}: {
  tenantId: string;
  userId: string;
  confirmText: string;
}) {
  const router = useRouter();
  const { run } = useConsoleAction(deleteUser, {
    success: "User deleted",
    onSuccess: () => router.push(`/console/tenants/${tenantId}/users`),
  });
  return (
    <ConfirmDialog
      trigger="Delete user"
      title="Delete this user?"
      description={
        <p>
          Their addresses, passkeys, security keys, sessions, password, authenticator app, UAF devices and
          metadata are deleted with them, at once. This cannot be undone.
        </p>
      }
      confirmLabel="Delete user"
      confirmText={confirmText}
      onConfirm={() => run(tenantId, userId)}
    />
  );
}

/** Ends one session: its token stops working at once. */
export function RevokeSessionButton({
  tenantId,
  userId,
  sessionId,
  label,
}: {
  tenantId: string;
  userId: string;
  sessionId: string;
  label: string;
}) {
  const router = useRouter();
  const { run } = useConsoleAction(revokeSession, {
    success: "Session revoked",
    onSuccess: () => router.refresh(),
  });
  return (
    <ConfirmDialog
      trigger={
        <>
          Revoke<span className="sr-only"> session {label}</span>
        </>
      }
      triggerVariant="secondary"
      title="Revoke this session?"
      description={<p>{label}: its token stops working at once; the user has to sign in again there.</p>}
      confirmLabel="Revoke session"
      onConfirm={() => run(tenantId, userId, sessionId)}
    />
  );
}

/** Ends every session of the user. */
export function RevokeAllSessionsButton({ tenantId, userId }: { tenantId: string; userId: string }) {
  const router = useRouter();
  const { run } = useConsoleAction(revokeAllSessions, {
    success: (count) => `${count} session${count === 1 ? "" : "s"} revoked`,
    onSuccess: () => router.refresh(),
  });
  return (
    <ConfirmDialog
      trigger="Revoke all sessions"
      title="Revoke all sessions?"
      description={<p>Every session of this user ends at once; they have to sign in again everywhere.</p>}
      confirmLabel="Revoke all"
      onConfirm={() => run(tenantId, userId)}
    />
  );
}
