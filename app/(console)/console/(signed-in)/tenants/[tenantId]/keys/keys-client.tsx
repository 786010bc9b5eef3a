"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { ConfirmDialog, SecretOnce, useConsoleAction } from "@/components/console/client";
import { Button, FormField, fieldProps } from "@/components/console/ui";
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
  const id = useId();
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
  const scopesError =
    fieldErrors.scopes ?? Object.entries(fieldErrors).find(([k]) => k.startsWith("scopes."))?.[1];
  return (
    <>
      <Button onClick={() => dialog.current?.showModal()}>Create API key</Button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:bg-slate-900 dark:text-slate-100"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Create an API key
        </h2>
        <form
          className="mt-4 space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            void run({ name, scopes });
          }}
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
          <fieldset aria-describedby={scopesError ? "key-scopes-error" : undefined}>
            <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Scopes</legend>
            <div className="mt-2 space-y-2">
              {SCOPES.map((scope) => (
                <label key={scope.value} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="scopes"
                    value={scope.value}
                    className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600"
                    checked={scopes.includes(scope.value)}
                    onChange={(event) =>
                      setScopes((current) =>
                        event.target.checked
                          ? [...current, scope.value]
                          : current.filter((value) => value !== scope.value),
                      )
                    }
                  />
                  <span>
                    <span className="font-medium">{scope.label}</span>{" "}
                    <span className="text-slate-600 dark:text-slate-400">— {scope.hint}</span>
                  </span>
                </label>
              ))}
            </div>
            {scopesError ? (
              <p
                id="key-scopes-error"
                role="alert"
                className="mt-1 text-xs font-medium text-red-700 dark:text-red-400"
              >
                {scopesError}
              </p>
            ) : null}
          </fieldset>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Creating…" : "Create key"}
            </Button>
          </div>
        </form>
      </dialog>
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
