"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog, useConsoleAction, useFieldIds } from "@/components/console/client";
import { Button, checkboxClass, FormField, fieldProps } from "@/components/console/ui";
import { addUserEmail, makeEmailPrimary, removeUserEmail } from "../actions";

interface EmailProps {
  tenantId: string;
  userId: string;
  emailId: string;
  address: string;
}

/** Makes the address the user's primary one (sessions and mails use it from then on). */
export function MakePrimaryButton({ tenantId, userId, emailId, address }: EmailProps) {
  const router = useRouter();
  const { run, pending } = useConsoleAction(makeEmailPrimary, {
    success: "Primary address changed",
    onSuccess: () => router.refresh(),
  });
  return (
    <Button variant="secondary" disabled={pending} onClick={() => void run(tenantId, userId, emailId)}>
      Make primary<span className="sr-only"> {address}</span>
    </Button>
  );
}

/** Removes the address after a confirmation. */
export function RemoveEmailButton({ tenantId, userId, emailId, address }: EmailProps) {
  const router = useRouter();
  const { run } = useConsoleAction(removeUserEmail, {
    success: "Address removed",
    onSuccess: () => router.refresh(),
  });
  return (
    <ConfirmDialog
      trigger={
        <>
          Remove<span className="sr-only"> {address}</span>
        </>
      }
      triggerVariant="secondary"
      title="Remove this address?"
      description={<p>{address}: the user can no longer sign in with it or receive codes there.</p>}
      confirmLabel="Remove address"
      onConfirm={() => run(tenantId, userId, emailId)}
    />
  );
}

/** Adds an address: verified or not, primary or not (no mail is sent). */
export function AddEmailForm({ tenantId, userId }: { tenantId: string; userId: string }) {
  const router = useRouter();
  const id = useFieldIds();
  const empty = { address: "", verified: true, primary: false };
  const [form, setForm] = useState(empty);
  const { run, pending, fieldErrors } = useConsoleAction(addUserEmail, {
    success: "Address added",
    onSuccess: () => {
      setForm(empty);
      router.refresh();
    },
  });
  return (
    <form
      className="mt-4 flex flex-wrap items-end gap-4 border-t border-slate-200 pt-4 dark:border-slate-700"
      noValidate
      aria-label="Add an email address"
      onSubmit={(event) => {
        event.preventDefault();
        void run(tenantId, userId, form);
      }}
    >
      <div className="min-w-0 flex-[1_1_16rem]">
        <FormField
          id={id("address")}
          label="Add an email address"
          hint="No mail is sent."
          error={fieldErrors.address}
        >
          <input
            {...fieldProps(id("address"), fieldErrors.address)}
            name="address"
            type="email"
            autoComplete="off"
            value={form.address}
            onChange={(event) => setForm({ ...form, address: event.target.value })}
          />
        </FormField>
      </div>
      <div className="flex flex-col gap-2 text-sm text-slate-800 dark:text-slate-200">
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            className={checkboxClass}
            checked={form.verified}
            onChange={(event) => setForm({ ...form, verified: event.target.checked })}
          />
          Verified
        </label>
        <label className="flex items-center gap-2">
          <input
            id={id("primary")}
            type="checkbox"
            className={checkboxClass}
            aria-invalid={fieldErrors.primary ? true : undefined}
            aria-describedby={fieldErrors.primary ? `${id("primary")}-error` : undefined}
            checked={form.primary}
            onChange={(event) => setForm({ ...form, primary: event.target.checked })}
          />
          Make it primary
        </label>
      </div>
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? "Adding…" : "Add address"}
      </Button>
      {fieldErrors.primary ? (
        <p
          id={`${id("primary")}-error`}
          role="alert"
          className="w-full text-xs font-medium text-red-700 dark:text-red-400"
        >
          {fieldErrors.primary}
        </p>
      ) : null}
    </form>
  );
}
