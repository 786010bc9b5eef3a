"use client";

import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  WebAuthnAbortService,
} from "@simplewebauthn/browser";
import { useEffect, useState } from "react";
import { signInWithAssertion } from "@/components/console/auth-client";
import { Button, fieldProps } from "@/components/console/ui";
import { signInOptions } from "../public-actions";

/**
 * Passkey sign-in: conditional UI (autofill) on load, and a button for a modal prompt; then to `next`
 * (already checked on the server: a console page).
 */
export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function run(autofill: boolean) {
    const options = await signInOptions();
    if (!options.ok) {
      setError(options.error);
      return;
    }
    let assertion;
    try {
      assertion = await startAuthentication({ optionsJSON: options.data, useBrowserAutofill: autofill });
    } catch (cause) {
      // Aborted (the button started a modal ceremony) or cancelled by the operator.
      if (!autofill)
        setError(
          cause instanceof Error && cause.name === "NotAllowedError"
            ? "The passkey prompt was cancelled."
            : String(cause),
        );
      return;
    }
    setBusy(true);
    if (await signInWithAssertion(assertion)) {
      location.assign(next);
      return;
    }
    setBusy(false);
    setError("That passkey did not sign you in. Is it an operator passkey of this console?");
  }

  useEffect(() => {
    void (async () => {
      if (await browserSupportsWebAuthnAutofill()) await run(true);
    })();
    return () => WebAuthnAbortService.cancelCeremony();
  }, []);

  return (
    <form
      className="mt-6 space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        setError(undefined);
        if (!browserSupportsWebAuthn()) {
          setError("This browser does not support passkeys.");
          return;
        }
        void run(false);
      }}
    >
      <div className="space-y-1">
        <label htmlFor="username" className="block text-sm font-medium">
          Email
        </label>
        <input
          {...fieldProps("username")}
          type="text"
          autoComplete="username webauthn"
          placeholder="you@example.com"
        />
      </div>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Signing in…" : "Sign in with a passkey"}
      </Button>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <p className="text-xs text-slate-600 dark:text-slate-400">
        No passkey yet? Ask an owner for an enrolment link, or run{" "}
        <code>npm run sesame -- operator recover --email …</code> on the server.
      </p>
    </form>
  );
}
