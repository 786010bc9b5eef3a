"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useConsoleAction, useFieldIds } from "@/components/console/client";
import { Button, FormField, fieldProps } from "@/components/console/ui";
import { saveProfile } from "../actions";

/** The username and name, saved together (an empty field clears it). */
export function ProfileForm({
  tenantId,
  userId,
  username,
  name,
  usernamesEnabled,
}: {
  tenantId: string;
  userId: string;
  username: string;
  name: string;
  usernamesEnabled: boolean;
}) {
  const router = useRouter();
  const id = useFieldIds();
  const [form, setForm] = useState({ username, name });
  const { run, pending, fieldErrors } = useConsoleAction(saveProfile, {
    success: "Profile saved",
    onSuccess: () => router.refresh(),
  });
  return (
    <form
      className="mt-4 grid gap-4 border-t border-slate-200 pt-4 sm:grid-cols-2 dark:border-slate-700"
      noValidate
      aria-label="Profile"
      onSubmit={(event) => {
        event.preventDefault();
        void run(tenantId, userId, form);
      }}
    >
      <FormField
        id={id("username")}
        label="Username"
        hint={
          usernamesEnabled
            ? "Empty removes it"
            : "Usernames are off for this tenant (Settings → Sign-in methods)"
        }
        error={fieldErrors.username}
      >
        <input
          {...fieldProps(id("username"), fieldErrors.username)}
          name="username"
          autoComplete="off"
          value={form.username}
          onChange={(event) => setForm({ ...form, username: event.target.value })}
        />
      </FormField>
      <FormField id={id("name")} label="Name" hint="Empty removes it" error={fieldErrors.name}>
        <input
          {...fieldProps(id("name"), fieldErrors.name)}
          name="name"
          autoComplete="off"
          value={form.name}
          onChange={(event) => setForm({ ...form, name: event.target.value })}
        />
      </FormField>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save profile"}
        </Button>
      </div>
    </form>
  );
}
