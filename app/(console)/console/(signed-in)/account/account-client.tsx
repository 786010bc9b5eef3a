"use client";

import { startRegistration } from "@simplewebauthn/browser";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { signOut } from "@/components/console/auth-client";
import { ConfirmDialog, useConsoleAction, useToast } from "@/components/console/client";
import { Button } from "@/components/console/ui";
import { addPasskey, addPasskeyOptions, removePasskey, signOutEverywhere } from "./actions";

/** Registers one more passkey for the signed-in operator (options and verification on the server). */
export function AddPasskeyButton() {
  const router = useRouter();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  async function add() {
    setBusy(true);
    try {
      const options = await addPasskeyOptions();
      if (!options.ok) return toast("error", options.error);
      const registration = await startRegistration({ optionsJSON: options.data });
      const done = await addPasskey(registration);
      if (!done.ok) return toast("error", done.error);
      toast("success", "Passkey added");
      router.refresh();
    } catch (cause) {
      toast(
        "error",
        cause instanceof Error && cause.name === "NotAllowedError"
          ? "The passkey prompt was cancelled."
          : cause instanceof Error && cause.name === "InvalidStateError"
            ? "This authenticator already holds a passkey for your account."
            : "The passkey could not be added; try again.",
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button onClick={() => void add()} disabled={busy}>
      {busy ? "Waiting for the passkey…" : "Add a passkey"}
    </Button>
  );
}

export function RemovePasskeyButton({ credentialId, name }: { credentialId: string; name: string }) {
  const router = useRouter();
  const { run } = useConsoleAction(removePasskey.bind(null, credentialId), {
    success: "Passkey removed",
    onSuccess: () => router.refresh(),
  });
  return (
    <ConfirmDialog
      trigger={
        <>
          Remove<span className="sr-only"> {name}</span>
        </>
      }
      title={`Remove the passkey “${name}”?`}
      description="You can no longer sign in to the console with it. Remove it from the device or password manager too."
      confirmLabel="Remove passkey"
      onConfirm={() => run()}
    />
  );
}

export function SignOutEverywhereButton() {
  const { run } = useConsoleAction(signOutEverywhere, {
    onSuccess: () => {
      void signOut().finally(() => location.assign("/console/sign-in?signed_out=1"));
    },
  });
  return (
    <ConfirmDialog
      trigger="Sign out everywhere"
      title="Sign out everywhere?"
      description="Every console session you have, on every device and browser, ends now; this one too."
      confirmLabel="Sign out everywhere"
      onConfirm={() => run()}
    />
  );
}
