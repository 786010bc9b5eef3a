"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { ConfirmDialog, FormDialog, SecretOnce, useConsoleAction } from "@/components/console/client";
import {
  CheckboxGroup,
  Choice,
  FormField,
  fieldProps,
  listFieldError,
  toggled,
} from "@/components/console/ui";
import { createKey, revokeKey, rotateKey } from "./actions";

const SCOPES = [
  { value: "admin", label: "admin", hint: "the admin API (/t/{tenant_id}/admin/…)" },
  { value: "passkey", label: "passkey", hint: "the Passkey API (/passkey/{tenant_id}/…)" },
  { value: "authenticator", label: "authenticator", hint: "the Authenticator API (/v1/uaf/…)" },
] as const;

/** "Create API key": a dialog with the name and scopes; the new secret is then shown once. */
export function CreateKeyButton({ tenantId }: { tenantId: string }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["admin"]);
  const [secret, setSecret] = useState<string | undefined>();
  const { run, pending, fieldErrors } = useConsoleAction(createKey.bind(null, tenantId), {
    success: (key) => `API key ${key.prefix}… created`,
    onSuccess: (key) => {
      dialog.current?.close();
      setName("");
      setScopes(["admin"]);
      setSecret(key.secret);
      router.refresh();
    },
  });
  const scopesError = listFieldError(fieldErrors, "scopes");
  return (
    <>
      <FormDialog
        trigger="Create API key"
        title="Create an API key"
        dialogRef={dialog}
        onSubmit={() => void run({ name, scopes })}
        pending={pending}
        submitLabel="Create key"
        pendingLabel="Creating…"
      >
        <FormField
          id="key-name"
          label="Name"
          hint="What uses it, e.g. “backend production”."
          error={fieldErrors.name}
        >
          <input
            {...fieldProps("key-name", fieldErrors.name)}
            value={name}
            onChange={(event) => setName(event.target.value)}
            autoComplete="off"
            maxLength={100}
          />
        </FormField>
        <CheckboxGroup legend="Scopes" errorId="key-scopes-error" error={scopesError}>
          <div className="mt-2 space-y-2">
            {SCOPES.map((scope) => (
              <Choice
                key={scope.value}
                name="scopes"
                value={scope.value}
                checked={scopes.includes(scope.value)}
                onChange={(event) =>
                  setScopes((current) => toggled(current, scope.value, event.target.checked))
                }
              >
                <span className="font-medium">{scope.label}</span>{" "}
                <span className="text-slate-600 dark:text-slate-400">— {scope.hint}</span>
              </Choice>
            ))}
          </div>
        </CheckboxGroup>
      </FormDialog>
      {secret ? (
        <SecretOnce label="Your new API key" value={secret} onDone={() => setSecret(undefined)} />
      ) : null}
    </>
  );
}

export function RevokeKeyButton({
  tenantId,
  keyId,
  name,
  prefix,
}: {
  tenantId: string;
  keyId: string;
  name: string;
  prefix: string;
}) {
  const router = useRouter();
  const { run } = useConsoleAction(revokeKey.bind(null, tenantId), {
    success: `API key ${prefix}… revoked`,
    onSuccess: () => router.refresh(),
  });
  return (
    <ConfirmDialog
      trigger={
        <>
          Revoke<span className="sr-only"> {name}</span>
        </>
      }
      title={`Revoke the API key “${name}”?`}
      description={
        <>
          Requests with <code>{prefix}…</code> are refused at once, on every instance. This cannot be undone.
        </>
      }
      confirmLabel="Revoke key"
      onConfirm={() => run(keyId)}
    />
  );
}

export function RotateSigningKeyButton({ tenantId }: { tenantId: string }) {
  const router = useRouter();
  const { run } = useConsoleAction(rotateKey.bind(null, tenantId), {
    success: (key) => `New signing key ${key.kid} (${key.algorithm}) is active`,
    onSuccess: () => router.refresh(),
  });
  return (
    <ConfirmDialog
      trigger="Rotate signing key"
      triggerVariant="secondary"
      title="Rotate the signing key?"
      description="A new key signs every token from now on. Tokens signed earlier keep verifying: the old key stays in the JWKS. Apps that cache the JWKS pick the new key up on their next refresh."
      confirmLabel="Rotate"
      confirmVariant="primary"
      onConfirm={() => run()}
    />
  );
}
