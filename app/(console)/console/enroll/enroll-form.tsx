"use client";

import { startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { useEffect, useState } from "react";
import { signInWithAssertion } from "@/components/console/auth-client";
import { Button, FormField, fieldProps } from "@/components/console/ui";
import { completeEnrolment, enrolmentInfo, enrolmentOptions, signInOptions } from "../public-actions";

type State =
  | { step: "loading" }
  | { step: "invalid"; message: string }
  | { step: "ready"; email: string | null; setup: boolean }
  | { step: "done"; email: string };

/** Registers a passkey with the link's token, then signs in with it. */
export function EnrollForm() {
  const [token, setToken] = useState("");
  const [state, setState] = useState<State>({ step: "loading" });
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const fragment = location.hash.slice(1);
    // Out of the address bar and history once read.
    history.replaceState(null, "", location.pathname);
    setToken(fragment);
    void enrolmentInfo(fragment).then((info) =>
      setState(info.ok ? { step: "ready", ...info.data } : { step: "invalid", message: info.error }),
    );
  }, []);

  async function enrol() {
    setError(undefined);
    setFieldError(undefined);
    setBusy(true);
    try {
      const options = await enrolmentOptions(
        token,
        state.step === "ready" && state.setup ? email : undefined,
      );
      if (!options.ok) {
        if (options.code === "VALIDATION_FAILED") setFieldError(options.error);
        else setError(options.error);
        return;
      }
      const registration = await startRegistration({ optionsJSON: options.data });
      const done = await completeEnrolment(token, registration);
      if (!done.ok) {
        setError(done.error);
        return;
      }
      setState({ step: "done", email: done.data.email });
      // Sign in at once with the new passkey.
      const login = await signInOptions();
      if (login.ok && (await signInWithAssertion(await startAuthentication({ optionsJSON: login.data })))) {
        location.assign("/console");
      }
    } catch (cause) {
      setError(
        cause instanceof Error && cause.name === "NotAllowedError"
          ? "The passkey prompt was cancelled."
          : String(cause),
      );
    } finally {
      setBusy(false);
    }
  }

  if (state.step === "loading") return <p className="mt-4 text-sm">Checking the link…</p>;
  if (state.step === "invalid")
    return (
      <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-400">
        {state.message}. Ask an owner for a new link, or run{" "}
        <code>npm run sesame -- operator recover --email …</code>.
      </p>
    );
  if (state.step === "done")
    return (
      <div className="mt-4 space-y-3 text-sm">
        <p role="status">Passkey registered for {state.email}.</p>
        <a className="font-medium text-indigo-700 underline dark:text-indigo-300" href="/console/sign-in">
          Sign in
        </a>
      </div>
    );
  return (
    <form
      className="mt-4 space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void enrol();
      }}
    >
      {state.setup ? (
        <>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            This is the console&apos;s first start: you become its owner. The link works once.
          </p>
          <FormField id="email" label="Your email" error={fieldError}>
            <input
              {...fieldProps("email", fieldError)}
              type="email"
              required
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </FormField>
        </>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Register a passkey for <strong>{state.email}</strong>. The link works once.
        </p>
      )}
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Waiting for the passkey…" : "Register a passkey"}
      </Button>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </form>
  );
}
