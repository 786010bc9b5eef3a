"use client";

import { useRouter } from "next/navigation";
import { ConfirmDialog, useConsoleAction } from "@/components/console/client";
import { Button } from "@/components/console/ui";
import {
  deleteUser,
  removeUserCredential,
  revokeAllSessions,
  revokeSession,
  setUserLocked,
} from "../actions";

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

/** Locks the user (no sign-in anywhere, sessions end) after a confirmation, or unlocks them at once. */
export function LockUserButton({
  tenantId,
  userId,
  locked,
}: {
  tenantId: string;
  userId: string;
  locked: boolean;
}) {
  const router = useRouter();
  const { run, pending } = useConsoleAction(setUserLocked, {
    success: locked ? "User unlocked: they can sign in again" : "User locked and signed out everywhere",
    onSuccess: () => router.refresh(),
  });
  if (locked) {
    return (
      <Button variant="secondary" disabled={pending} onClick={() => void run(tenantId, userId, false)}>
        Unlock user
      </Button>
    );
  }
  return (
    <ConfirmDialog
      trigger="Lock user"
      triggerVariant="secondary"
      title="Lock this user?"
      description={
        <p>
          Their sessions end at once, and they cannot sign in again (passkey, code, password, third-party
          account or single sign-on) until you unlock them. Nothing of theirs is deleted.
        </p>
      }
      confirmLabel="Lock user"
      onConfirm={() => run(tenantId, userId, true)}
    />
  );
}

/** Removes one passkey or security key after a confirmation. */
export function RemoveCredentialButton({
  tenantId,
  userId,
  credentialId,
  kind,
  name,
}: {
  tenantId: string;
  userId: string;
  credentialId: string;
  kind: "passkey" | "security key";
  name: string;
}) {
  const router = useRouter();
  const { run } = useConsoleAction(removeUserCredential, {
    success: kind === "passkey" ? "Passkey removed" : "Security key removed",
    onSuccess: () => router.refresh(),
  });
  return (
    <ConfirmDialog
      trigger={
        <>
          Remove
          <span className="sr-only">
            {" "}
            {kind} {name}
          </span>
        </>
      }
      triggerVariant="secondary"
      title={`Remove this ${kind}?`}
      description={
        <p>
          {name}: the user can no longer sign in with it{kind === "passkey" ? "" : " as a second factor"}. The
          authenticator itself keeps it until the user deletes it there.
        </p>
      }
      confirmLabel={`Remove ${kind}`}
      onConfirm={() => run(tenantId, userId, credentialId)}
    />
  );
}
