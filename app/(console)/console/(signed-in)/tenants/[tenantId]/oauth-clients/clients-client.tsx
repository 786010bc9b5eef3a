"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState, type ReactNode } from "react";
import { ConfirmDialog, SecretOnce, useConsoleAction } from "@/components/console/client";
import { Button, FormField, fieldProps } from "@/components/console/ui";
import { createClientAction, deleteClientAction, rotateClientSecretAction } from "./actions";

const SCOPES = [
  { value: "openid", hint: "sign-in (always)" },
  { value: "email", hint: "the user's email address" },
  { value: "profile", hint: "name and username" },
  { value: "offline_access", hint: "refresh tokens" },
] as const;

const checkbox = "mt-0.5 size-4 rounded border-slate-300 accent-indigo-600";

function Toggle({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="flex items-start gap-2 text-sm">
      <input
        type="checkbox"
        className={checkbox}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span>{children}</span>
    </label>
  );
}

/** "Create OAuth client": name, redirect URIs, scopes, public and first-party; the secret then shown once. */
export function CreateClientButton({ tenantId }: { tenantId: string }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [name, setName] = useState("");
  const [redirectUris, setRedirectUris] = useState("");
  const [scopes, setScopes] = useState<string[]>(["openid", "email", "profile"]);
  const [isPublic, setPublic] = useState(false);
  const [firstParty, setFirstParty] = useState(false);
  const [created, setCreated] = useState<{ clientId: string; secret?: string } | undefined>();
  const { run, pending, fieldErrors, error } = useConsoleAction(createClientAction.bind(null, tenantId), {
    success: (client) => `OAuth client ${client.clientId} created`,
    onSuccess: (client) => {
      dialog.current?.close();
      setName("");
      setRedirectUris("");
      setCreated(client);
      router.refresh();
    },
  });
  const redirectError =
    fieldErrors.redirectUris ?? Object.entries(fieldErrors).find(([k]) => k.startsWith("redirectUris."))?.[1];
  return (
    <>
      <Button onClick={() => dialog.current?.showModal()}>Create OAuth client</Button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:bg-slate-900 dark:text-slate-100"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Create an OAuth client
        </h2>
        <form
          className="mt-4 space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            const uris = redirectUris
              .split(/\s+/)
              .map((uri) => uri.trim())
              .filter(Boolean);
            void run({ name, redirectUris: uris, scopes, public: isPublic, firstParty });
          }}
        >
          <FormField id="client-name" label="Name" hint="Shown on the consent page." error={fieldErrors.name}>
            <input
              {...fieldProps("client-name", fieldErrors.name)}
              value={name}
              onChange={(event) => setName(event.target.value)}
              autoComplete="off"
              maxLength={200}
            />
          </FormField>
          <FormField
            id="client-redirect-uris"
            label="Redirect URIs"
            hint="One per line, matched exactly: https, or http on localhost / 127.0.0.1 only."
            error={redirectError ?? (error && !fieldErrors.name ? error : undefined)}
          >
            <textarea
              {...fieldProps("client-redirect-uris", redirectError)}
              value={redirectUris}
              onChange={(event) => setRedirectUris(event.target.value)}
              rows={3}
            />
          </FormField>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Allowed scopes</legend>
            <div className="mt-2 space-y-2">
              {SCOPES.map((scope) => (
                <label key={scope.value} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className={checkbox}
                    disabled={scope.value === "openid"}
                    checked={scope.value === "openid" || scopes.includes(scope.value)}
                    onChange={(event) =>
                      setScopes((current) =>
                        event.target.checked
                          ? [...current, scope.value]
                          : current.filter((value) => value !== scope.value),
                      )
                    }
                  />
                  <span>
                    <code>{scope.value}</code>{" "}
                    <span className="text-slate-600 dark:text-slate-400">— {scope.hint}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <Toggle checked={isPublic} onChange={setPublic}>
            Public client (a browser or mobile app: no secret, PKCE required)
          </Toggle>
          <Toggle checked={firstParty} onChange={setFirstParty}>
            First-party (your own app: users are not asked for consent)
          </Toggle>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Creating…" : "Create client"}
            </Button>
          </div>
        </form>
      </dialog>
      {created?.secret ? (
        <SecretOnce
          label={`Client secret of ${created.clientId}`}
          value={created.secret}
          note="Copy it now: it is shown only this once (Sesame keeps only its hash)."
          onDone={() => setCreated(undefined)}
        />
      ) : null}
    </>
  );
}

export function RotateClientSecretButton({ tenantId, clientId }: { tenantId: string; clientId: string }) {
  const [secret, setSecret] = useState<string | undefined>();
  const { run } = useConsoleAction(rotateClientSecretAction.bind(null, tenantId), {
    success: "New client secret",
    onSuccess: (result) => setSecret(result.secret),
  });
  return (
    <>
      <ConfirmDialog
        trigger="Rotate secret"
        triggerVariant="secondary"
        title="Rotate the client secret?"
        description="The current secret stops working at once: the app needs the new one."
        confirmLabel="Rotate"
        confirmVariant="primary"
        onConfirm={() => run(clientId)}
      />
      {secret ? (
        <SecretOnce label={`New secret of ${clientId}`} value={secret} onDone={() => setSecret(undefined)} />
      ) : null}
    </>
  );
}

export function DeleteClientButton({
  tenantId,
  clientId,
  name,
}: {
  tenantId: string;
  clientId: string;
  name: string;
}) {
  const router = useRouter();
  const { run } = useConsoleAction(deleteClientAction.bind(null, tenantId), {
    success: `OAuth client ${name} deleted`,
    onSuccess: () => router.refresh(),
  });
  return (
    <ConfirmDialog
      trigger={
        <>
          Delete<span className="sr-only"> {name}</span>
        </>
      }
      title={`Delete the OAuth client “${name}”?`}
      description="Its users can no longer sign in to it and its tokens stop working. This cannot be undone."
      confirmLabel="Delete client"
      onConfirm={() => run(clientId)}
    />
  );
}
