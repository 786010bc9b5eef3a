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
import { createClientAction, deleteClientAction, rotateClientSecretAction } from "./actions";

const SCOPES = [
  { value: "openid", hint: "sign-in (always)" },
  { value: "email", hint: "the user's email address" },
  { value: "profile", hint: "name and username" },
  { value: "offline_access", hint: "refresh tokens" },
] as const;

/** "Create OAuth client": name, redirect URIs, scopes, public and first-party; the secret then shown once. */
export function CreateClientButton({ tenantId }: { tenantId: string }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
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
  const redirectError = listFieldError(fieldErrors, "redirectUris");
  return (
    <>
      <FormDialog
        trigger="Create OAuth client"
        title="Create an OAuth client"
        width="lg"
        dialogRef={dialog}
        onSubmit={() => {
          const uris = redirectUris
            .split(/\s+/)
            .map((uri) => uri.trim())
            .filter(Boolean);
          void run({ name, redirectUris: uris, scopes, public: isPublic, firstParty });
        }}
        pending={pending}
        submitLabel="Create client"
        pendingLabel="Creating…"
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
        <CheckboxGroup legend="Allowed scopes">
          <div className="mt-2 space-y-2">
            {SCOPES.map((scope) => (
              <Choice
                key={scope.value}
                disabled={scope.value === "openid"}
                checked={scope.value === "openid" || scopes.includes(scope.value)}
                onChange={(event) =>
                  setScopes((current) => toggled(current, scope.value, event.target.checked))
                }
              >
                <code>{scope.value}</code>{" "}
                <span className="text-slate-600 dark:text-slate-400">— {scope.hint}</span>
              </Choice>
            ))}
          </div>
        </CheckboxGroup>
        <Choice checked={isPublic} onChange={(event) => setPublic(event.target.checked)}>
          Public client (a browser or mobile app: no secret, PKCE required)
        </Choice>
        <Choice checked={firstParty} onChange={(event) => setFirstParty(event.target.checked)}>
          First-party (your own app: users are not asked for consent)
        </Choice>
      </FormDialog>
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
