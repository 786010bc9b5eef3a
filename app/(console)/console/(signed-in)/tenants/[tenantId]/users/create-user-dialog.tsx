"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { useConsoleAction } from "@/components/console/client";
import { Button, FormField, fieldProps } from "@/components/console/ui";
import { createUser } from "./actions";

/**
 * "Create user": a dialog with the primary email, more addresses and a username; the server checks
 * them with the admin API's schema and answers errors per field, shown next to it. On success the
 * new user's page opens.
 */
export function CreateUserDialog({ tenantId }: { tenantId: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const router = useRouter();
  const prefix = useId().replace(/:/g, "");
  const [form, setForm] = useState({ email: "", additionalEmails: "", verified: true, username: "" });
  const { run, pending, fieldErrors, error } = useConsoleAction(createUser.bind(null, tenantId), {
    success: "User created",
    onSuccess: ({ id }) => {
      ref.current?.close();
      router.push(`/console/tenants/${tenantId}/users/${id}`);
    },
  });
  const id = (field: string) => `${prefix}-${field}`;
  const props = (field: keyof typeof form & string) => ({
    ...fieldProps(id(field), fieldErrors[field]),
    name: field,
  });
  const general = error && Object.keys(fieldErrors).length === 0 ? error : fieldErrors._;

  return (
    <>
      <Button onClick={() => ref.current?.showModal()}>Create user</Button>
      <dialog
        ref={ref}
        aria-labelledby={id("title")}
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:bg-slate-900 dark:text-slate-100"
      >
        <h2 id={id("title")} className="text-lg font-semibold">
          Create user
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          An email address, a username, or both. No mail is sent; the user signs in with the flow API.
        </p>
        <form
          className="mt-4 space-y-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void run(form);
          }}
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
              className="size-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
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
          {general ? (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
              {general}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => ref.current?.close()}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Creating…" : "Create user"}
            </Button>
          </div>
        </form>
      </dialog>
    </>
  );
}
