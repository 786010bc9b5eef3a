"use client";

import { useState, type FormEvent } from "react";
import { useConsoleAction } from "@/components/console/client";
import {
  Button,
  Card,
  choiceClass,
  FormField,
  cx,
  fieldProps,
  listFieldError,
} from "@/components/console/ui";
import { checkTenantAction, createTenantAction } from "./actions";
import { NextSteps, type CreatedTenant } from "./next-steps";

const STEPS = ["Name", "Relying party", "Sign-in methods"] as const;

const METHODS = [
  { key: "passkeys", label: "Passkeys", hint: "Sign in with a passkey (WebAuthn)." },
  { key: "passcodes", label: "Passcodes", hint: "Sign in with a one-time code sent by email." },
  { key: "password", label: "Passwords", hint: "Sign in with a password." },
  { key: "username", label: "Usernames", hint: "Ask for a username and accept it as a login identifier." },
] as const;
type Method = (typeof METHODS)[number]["key"];

/** Which step shows the field of an error path (the schema's path, e.g. `origins.0`). */
function stepOf(path: string): number {
  if (path === "name" || path === "rpName") return 0;
  if (path.startsWith("rpId") || path.startsWith("origins")) return 1;
  return 2;
}

/**
 * Name → relying party → sign-in methods, then one server action validated with the schema of
 * `tenant create`. Errors go next to their field; the wizard returns to the first step that has one.
 * It ends on the "next steps" panel with the API keys made with the tenant (shown this once).
 */
export function CreateTenantWizard({
  sesameOrigin,
  sesameHost,
}: {
  sesameOrigin: string;
  sesameHost: string;
}) {
  const [created, setCreated] = useState<CreatedTenant | undefined>();
  const [step, setStep] = useState(0);
  const [name, setName] = useState("");
  const [rpName, setRpName] = useState("");
  const [rpId, setRpId] = useState("");
  const [origins, setOrigins] = useState("");
  const [methods, setMethods] = useState<Record<Method, boolean>>({
    passkeys: true,
    passcodes: true,
    password: false,
    username: false,
  });
  const create = useConsoleAction(createTenantAction, {
    success: "Tenant created",
    onSuccess: (tenant) => setCreated(tenant),
  });
  const check = useConsoleAction(checkTenantAction);
  const pending = create.pending || check.pending;
  // The errors of the last check or creation.
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const error = (path: string) => listFieldError(fieldErrors, path);
  const otherErrors = Object.entries(fieldErrors).filter(
    ([key]) => !["name", "rpName", "rpId", "origins"].some((f) => key === f || key.startsWith(`${f}.`)),
  );

  /** The input of the steps up to `upTo` (the schema's shape: CreateTenantInput). */
  const input = (upTo: number) => {
    const originList = origins
      .split(/\s+/)
      .map((origin) => origin.trim())
      .filter(Boolean);
    return {
      name,
      ...(rpName.trim() ? { rpName } : {}),
      ...(upTo >= 1 && rpId.trim() ? { rpId } : {}),
      ...(upTo >= 1 && originList.length > 0 ? { origins: originList } : {}),
      ...(upTo >= 2
        ? {
            platform: {
              passkeys: { enabled: methods.passkeys },
              passcodes: { enabled: methods.passcodes },
              password: { enabled: methods.password },
              username: { enabled: methods.username },
            },
          }
        : {}),
    };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const last = step === STEPS.length - 1;
    const result = last ? await create.run(input(step)) : await check.run(input(step));
    setFieldErrors(result.ok ? {} : (result.fieldErrors ?? {}));
    if (result.ok) {
      if (!last) setStep(step + 1);
      return;
    }
    const steps = Object.keys(result.fieldErrors ?? {}).map(stepOf);
    if (steps.length > 0) setStep(Math.min(...steps));
  };

  if (created) return <NextSteps tenant={created} sesameOrigin={sesameOrigin} />;
  return (
    <Card className="max-w-2xl">
      <ol className="mb-6 flex flex-wrap gap-x-4 gap-y-2 text-sm" aria-label="Steps">
        {STEPS.map((label, index) => (
          <li key={label} aria-current={index === step ? "step" : undefined}>
            <span
              className={cx(
                "inline-flex items-center gap-2",
                index === step
                  ? "font-semibold text-indigo-700 dark:text-indigo-300"
                  : "text-slate-600 dark:text-slate-400",
              )}
            >
              <span
                aria-hidden="true"
                className={cx(
                  "inline-flex size-6 items-center justify-center rounded-full text-xs ring-1",
                  index <= step
                    ? "bg-indigo-600 text-white ring-indigo-600"
                    : "ring-slate-300 dark:ring-slate-600",
                )}
              >
                {index + 1}
              </span>
              {label}
            </span>
          </li>
        ))}
      </ol>
      <form onSubmit={submit} noValidate className="space-y-5">
        <h2 className="text-base font-semibold text-slate-900 dark:text-white">
          Step {step + 1} of {STEPS.length}: {STEPS[step]}
        </h2>
        {step === 0 ? (
          <>
            <FormField
              id="name"
              label="Name"
              hint="How the console and the hosted pages call it."
              error={error("name")}
            >
              <input
                {...fieldProps("name", error("name"))}
                value={name}
                onChange={(e) => setName(e.target.value)}
                autoComplete="off"
                required
              />
            </FormField>
            <FormField
              id="rpName"
              label="Relying party name (optional)"
              hint="What passkey prompts show. Empty: the name."
              error={error("rpName")}
            >
              <input
                {...fieldProps("rpName", error("rpName"))}
                value={rpName}
                onChange={(e) => setRpName(e.target.value)}
                autoComplete="off"
              />
            </FormField>
          </>
        ) : null}
        {step === 1 ? (
          <>
            <FormField
              id="origins"
              label="Origins (optional)"
              hint={`The web origins of your application, one per line, such as https://app.example.com. Empty: Sesame's own origin ${sesameOrigin}, so the hosted pages work with passkeys.`}
              error={error("origins")}
            >
              <textarea
                {...fieldProps("origins", error("origins"))}
                rows={3}
                value={origins}
                onChange={(e) => setOrigins(e.target.value)}
                autoComplete="off"
                spellCheck={false}
              />
            </FormField>
            <FormField
              id="rpId"
              label="RP ID (optional)"
              hint={`The host name passkeys are bound to; every origin must lie on it. Empty: the host of the first origin, else ${sesameHost}.`}
              error={error("rpId")}
            >
              <input
                {...fieldProps("rpId", error("rpId"))}
                value={rpId}
                onChange={(e) => setRpId(e.target.value)}
                autoComplete="off"
                spellCheck={false}
              />
            </FormField>
          </>
        ) : null}
        {step === 2 ? (
          <fieldset className="space-y-3">
            <legend className="mb-2 text-sm font-medium text-slate-800 dark:text-slate-200">
              How users sign in (change it later in the settings)
            </legend>
            {METHODS.map((method) => (
              <div key={method.key} className="flex items-start gap-3">
                <input
                  id={`method-${method.key}`}
                  type="checkbox"
                  checked={methods[method.key]}
                  onChange={(e) => setMethods({ ...methods, [method.key]: e.target.checked })}
                  aria-describedby={`method-${method.key}-hint`}
                  className={choiceClass}
                />
                <div>
                  <label
                    htmlFor={`method-${method.key}`}
                    className="text-sm font-medium text-slate-900 dark:text-slate-100"
                  >
                    {method.label}
                  </label>
                  <p id={`method-${method.key}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
                    {method.hint}
                  </p>
                </div>
              </div>
            ))}
          </fieldset>
        ) : null}
        {otherErrors.length > 0 ? (
          <ul role="alert" className="space-y-1 text-xs font-medium text-red-700 dark:text-red-400">
            {otherErrors.map(([key, message]) => (
              <li key={key}>
                {key}: {message}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="flex flex-wrap justify-between gap-2 border-t border-slate-200 pt-4 dark:border-slate-700">
          {step > 0 ? (
            <Button variant="secondary" onClick={() => setStep(step - 1)} disabled={pending}>
              Back
            </Button>
          ) : (
            <span />
          )}
          <Button type="submit" disabled={pending}>
            {step < STEPS.length - 1 ? "Next" : pending ? "Creating…" : "Create tenant"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
