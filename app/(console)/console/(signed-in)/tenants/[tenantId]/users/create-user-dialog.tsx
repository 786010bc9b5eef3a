"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { FormDialog, useConsoleAction, useFieldIds } from "@/components/console/client";
import { checkboxClass, FormField, fieldProps, formError } from "@/components/console/ui";
import { createUser } from "./actions";

/**
 * "Create user": a dialog with the primary email, more addresses and a username; the server checks
 * them with the admin API's schema and answers errors per field, shown next to it. On success the
 * new user's page opens.
 */
export function CreateUserDialog({ tenantId }: { tenantId: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const router = useRouter();
  const id = useFieldIds();
  const [form, setForm] = useState({ email: "", additionalEmails: "", verified: true, username: "" });
  const { run, pending, fieldErrors, error } = useConsoleAction(createUser.bind(null, tenantId), {
    success: "User created",
    onSuccess: ({ id }) => {
      ref.current?.close();
      router.push(`/console/tenants/${tenantId}/users/${id}`);
    },
  });
  const props = (field: keyof typeof form & string) => ({
    ...fieldProps(id(field), fieldErrors[field]),
    name: field,
  });

  return (
    <FormDialog
      trigger="Create user"
      title="Create user"
      description="An email address, a username, or both. No mail is sent; the user signs in with the flow API."
      dialogRef={ref}
      noValidate
      onSubmit={() => void run(form)}
      error={formError(error, fieldErrors)}
      pending={pending}
      submitLabel="Create user"
      pendingLabel="Creating…"
    >
      <FormField id={id("email")} label="Primary email" error={fieldErrors.email}>
        <input
          {...props("email")}
          type="email"
          autoComplete="off"
          value={form.email}
          onChange={(event) => setForm({ ...form, email: event.target.value })}
        />
      </FormField>
      <FormField
        id={id("additionalEmails")}
        label="More email addresses"
        hint="Optional, one per line"
        error={fieldErrors.additionalEmails}
      >
        <textarea
          {...props("additionalEmails")}
          rows={2}
          value={form.additionalEmails}
          onChange={(event) => setForm({ ...form, additionalEmails: event.target.value })}
        />
      </FormField>
      <div className="flex items-center gap-2">
        <input
          id={id("verified")}
          type="checkbox"
          checked={form.verified}
          onChange={(event) => setForm({ ...form, verified: event.target.checked })}
          className={checkboxClass}
        />
        <label htmlFor={id("verified")} className="text-sm text-slate-800 dark:text-slate-200">
          The addresses are verified
        </label>
      </div>
      <FormField
        id={id("username")}
        label="Username"
        hint="Optional; only when the tenant has usernames on"
        error={fieldErrors.username}
      >
        <input
          {...props("username")}
          autoComplete="off"
          value={form.username}
          onChange={(event) => setForm({ ...form, username: event.target.value })}
        />
      </FormField>
    </FormDialog>
  );
}
