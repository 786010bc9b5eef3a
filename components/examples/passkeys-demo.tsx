"use client";

import { startAuthentication, startRegistration } from "@simplewebauthn/browser";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { useCallback, useState, type FormEvent } from "react";
import {
  beginRegistration,
  beginTransaction,
  deleteCredential,
  finishTransaction,
  listCredentials,
  renameCredential,
  verifyToken,
  type DemoCredential,
} from "@/app/(examples)/examples/passkeys/actions";
import { Panel, RenamableRow, StatusMessage, button, input } from "./ui";

/** Calls a Passkey API route that the browser may call itself (no API key). */
async function browserCall<T>(tenantId: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/passkey/${tenantId}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error([...(json.title ?? []), ...(json.details ?? [])].join(": "));
  return json as T;
}

export function PasskeysDemo({ tenantId }: { tenantId: string }) {
  const [username, setUsername] = useState("");
  const [user, setUser] = useState<string | null>(null);
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const [credentials, setCredentials] = useState<DemoCredential[]>([]);
  const [amount, setAmount] = useState("25.00");

  const run = useCallback(async (work: () => Promise<string>) => {
    try {
      setMessage({ text: await work() });
    } catch (error) {
      setMessage({ text: (error as Error).message, error: true });
    }
  }, []);

  const refresh = useCallback(async (userId: string) => setCredentials(await listCredentials(userId)), []);

  const register = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const optionsJSON = (await beginRegistration(username)) as PublicKeyCredentialCreationOptionsJSON;
      const credential = await startRegistration({ optionsJSON });
      const { token } = await browserCall<{ token: string }>(tenantId, "/registration/finalize", credential);
      const claims = await verifyToken(token);
      setUser(claims.sub ?? null);
      await refresh(username);
      return `Registered a passkey for ${claims.sub}`;
    });
  };

  const login = () =>
    run(async () => {
      const { publicKey } = await browserCall<{ publicKey: PublicKeyCredentialRequestOptionsJSON }>(
        tenantId,
        "/login/initialize",
      );
      const assertion = await startAuthentication({ optionsJSON: publicKey });
      const { token } = await browserCall<{ token: string }>(tenantId, "/login/finalize", assertion);
      const claims = await verifyToken(token);
      setUser(claims.sub ?? null);
      if (claims.sub) await refresh(claims.sub);
      return `Logged in as ${claims.sub}`;
    });

  const signTransaction = (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    void run(async () => {
      const transactionId = crypto.randomUUID();
      const optionsJSON = (await beginTransaction(user, transactionId, {
        action: "transfer",
        amount,
        currency: "EUR",
      })) as PublicKeyCredentialRequestOptionsJSON;
      const assertion = await startAuthentication({ optionsJSON });
      const claims = await finishTransaction(assertion);
      return `Signed transaction ${claims.trans} as ${claims.sub}`;
    });
  };

  return (
    <div className="mt-8 space-y-8">
      <Panel id="passkey-heading" title={user ? `Signed in as ${user}` : "Register or log in"}>
        <form onSubmit={register} className="mt-3 flex flex-wrap gap-2">
          <label className="sr-only" htmlFor="username">
            Username
          </label>
          <input
            id="username"
            className={input}
            placeholder="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
            maxLength={64}
            autoComplete="username webauthn"
          />
          <button type="submit" className={button}>
            Register passkey
          </button>
          <button type="button" className={button} onClick={() => void login()}>
            Log in with passkey
          </button>
        </form>
        <StatusMessage message={message} />
      </Panel>

      {user && (
        <Panel id="transaction-heading" title="Sign a transaction">
          <form onSubmit={signTransaction} className="mt-3 flex flex-wrap items-center gap-2">
            <label htmlFor="amount" className="text-sm">
              Transfer (EUR)
            </label>
            <input id="amount" className={input} value={amount} onChange={(e) => setAmount(e.target.value)} />
            <button type="submit" className={button}>
              Sign transaction
            </button>
          </form>
        </Panel>
      )}

      {user && (
        <Panel id="credentials-heading" title="Your passkeys">
          {credentials.length === 0 ? (
            <p className="mt-3 text-sm text-slate-500">No passkeys.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-200">
              {credentials.map((credential) => (
                <CredentialRow
                  key={credential.id}
                  credential={credential}
                  onRename={(name) =>
                    run(async () => {
                      await renameCredential(credential.id, name);
                      await refresh(user);
                      return `Renamed passkey to ${name}`;
                    })
                  }
                  onDelete={() =>
                    run(async () => {
                      await deleteCredential(credential.id);
                      await refresh(user);
                      return "Deleted the passkey";
                    })
                  }
                />
              ))}
            </ul>
          )}
        </Panel>
      )}
    </div>
  );
}

function CredentialRow({
  credential,
  onRename,
  onDelete,
}: {
  credential: DemoCredential;
  onRename: (name: string) => Promise<void>;
  onDelete: () => Promise<void>;
}) {
  return (
    <RenamableRow
      label="Passkey"
      name={credential.name}
      maxLength={255}
      onRename={onRename}
      onDelete={onDelete}
      details={
        <>
          {credential.authenticator_name ?? "Unknown authenticator"} · created{" "}
          {new Date(credential.created_at).toLocaleString()}
          {credential.last_used_at
            ? ` · last used ${new Date(credential.last_used_at).toLocaleString()}`
            : ""}
        </>
      }
    />
  );
}
