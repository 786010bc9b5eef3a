"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { ConfirmDialog, FormDialog, SecretOnce, useConsoleAction } from "@/components/console/client";
import {
  CheckboxGroup,
  FormField,
  fieldProps,
  formError,
  listFieldError,
  toggled,
} from "@/components/console/ui";
import { changeOperator, deleteOperator, inviteOperator, newEnrolmentLink } from "./actions";

type Role = "owner" | "admin" | "viewer";
type TenantOption = { id: string; name: string };

const ROLES: { value: Role; label: string }[] = [
  { value: "viewer", label: "Viewer — read only, no secrets" },
  { value: "admin", label: "Admin — manages the tenants granted below" },
  { value: "owner", label: "Owner — everything, operators included" },
];

/** Role select and tenant checkboxes, shared by invite and edit. */
function RoleAndTenants({
  prefix,
  role,
  setRole,
  tenantIds,
  setTenantIds,
  tenants,
  fieldErrors,
}: {
  prefix: string;
  role: Role;
  setRole: (role: Role) => void;
  tenantIds: string[];
  setTenantIds: (ids: string[]) => void;
  tenants: TenantOption[];
  fieldErrors: Record<string, string>;
}) {
  return (
    <>
      <FormField id={`${prefix}-role`} label="Role" error={fieldErrors.role}>
        <select
          {...fieldProps(`${prefix}-role`, fieldErrors.role)}
          value={role}
          onChange={(event) => setRole(event.target.value as Role)}
        >
          {ROLES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </FormField>
      {role === "owner" ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">Owners see every tenant.</p>
      ) : (
        <CheckboxGroup
          legend="Tenants"
          errorId={`${prefix}-tenants-error`}
          error={listFieldError(fieldErrors, "tenantIds")}
        >
          {tenants.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              No tenants yet: grant them later, once created.
            </p>
          ) : (
            <div className="mt-2 max-h-48 space-y-2 overflow-y-auto">
              {tenants.map((tenant) => (
                <label key={tenant.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-indigo-600"
                    checked={tenantIds.includes(tenant.id)}
                    onChange={(event) => setTenantIds(toggled(tenantIds, tenant.id, event.target.checked))}
                  />
                  {tenant.name}
                </label>
              ))}
            </div>
          )}
        </CheckboxGroup>
      )}
    </>
  );
}

type Link = { email: string; url: string; expiresAt: string };

function EnrolmentLink({ link, onDone }: { link: Link; onDone: () => void }) {
  return (
    <SecretOnce
      label={`Enrolment link for ${link.email} (valid 30 minutes, once)`}
      value={link.url}
      onDone={onDone}
    />
  );
}

export function InviteOperatorButton({ tenants }: { tenants: TenantOption[] }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("viewer");
  const [tenantIds, setTenantIds] = useState<string[]>([]);
  const [link, setLink] = useState<Link | undefined>();
  const { run, pending, fieldErrors } = useConsoleAction(inviteOperator, {
    success: (data) => `${data.email} invited`,
    onSuccess: (data) => {
      dialog.current?.close();
      setEmail("");
      setTenantIds([]);
      setLink(data);
      router.refresh();
    },
  });
  return (
    <>
      <FormDialog
        trigger="Invite operator"
        title="Invite an operator"
        width="md"
        dialogRef={dialog}
        onSubmit={() => void run({ email, role, tenantIds })}
        pending={pending}
        submitLabel="Invite"
        pendingLabel="Inviting…"
      >
        <FormField
          id="invite-email"
          label="Email"
          hint="They get a one-time link to register a passkey; give it to them yourself."
          error={fieldErrors.email}
        >
          <input
            {...fieldProps("invite-email", fieldErrors.email)}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </FormField>
        <RoleAndTenants
          prefix="invite"
          role={role}
          setRole={setRole}
          tenantIds={tenantIds}
          setTenantIds={setTenantIds}
          tenants={tenants}
          fieldErrors={fieldErrors}
        />
      </FormDialog>
      {link ? <EnrolmentLink link={link} onDone={() => setLink(undefined)} /> : null}
    </>
  );
}

export function EditOperatorButton({
  operator,
  tenants,
}: {
  operator: { id: string; email: string; role: Role; tenantIds: string[] };
  tenants: TenantOption[];
}) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [role, setRole] = useState<Role>(operator.role);
  const [tenantIds, setTenantIds] = useState<string[]>(operator.tenantIds);
  const { run, pending, fieldErrors, error } = useConsoleAction(changeOperator.bind(null, operator.id), {
    success: (data) => `${data.email} is now ${data.role}`,
    onSuccess: () => {
      dialog.current?.close();
      router.refresh();
    },
  });
  return (
    <FormDialog
      trigger={
        <>
          Edit<span className="sr-only"> {operator.email}</span>
        </>
      }
      triggerVariant="secondary"
      title={`Change ${operator.email}`}
      width="md"
      dialogRef={dialog}
      onSubmit={() => void run({ role, tenantIds })}
      error={formError(error, fieldErrors)}
      pending={pending}
      submitLabel="Save"
      pendingLabel="Saving…"
    >
      <RoleAndTenants
        prefix={`edit-${operator.id}`}
        role={role}
        setRole={setRole}
        tenantIds={tenantIds}
        setTenantIds={setTenantIds}
        tenants={tenants}
        fieldErrors={fieldErrors}
      />
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Saving signs {operator.email} out of the console everywhere, so the change applies at once.
      </p>
    </FormDialog>
  );
}

export function RemoveOperatorButton({
  operatorId,
  email,
  self,
}: {
  operatorId: string;
  email: string;
  self: boolean;
}) {
  const router = useRouter();
  const { run } = useConsoleAction(deleteOperator.bind(null, operatorId), {
    success: (data) => `${data.email} removed`,
    onSuccess: () => (self ? location.assign("/console/sign-in") : router.refresh()),
  });
  return (
    <ConfirmDialog
      trigger={
        <>
          Remove<span className="sr-only"> {email}</span>
        </>
      }
      title={`Remove ${email}?`}
      description={
        <>
          Their passkeys are deleted and their console sessions end.{" "}
          {self ? "This is you: you will be signed out." : null}
        </>
      }
      confirmLabel="Remove operator"
      confirmText={email}
      onConfirm={() => run()}
    />
  );
}

export function NewLinkButton({ operatorId, email }: { operatorId: string; email: string }) {
  const [link, setLink] = useState<Link | undefined>();
  const { run } = useConsoleAction(newEnrolmentLink.bind(null, operatorId), {
    success: (data) => `New enrolment link for ${data.email}`,
    onSuccess: (data) => setLink(data),
  });
  return (
    <>
      <ConfirmDialog
        trigger={
          <>
            New link<span className="sr-only"> for {email}</span>
          </>
        }
        triggerVariant="secondary"
        title={`A new enrolment link for ${email}?`}
        description="For an operator who lost their passkey: the link registers a new one. Their current passkeys keep working until removed; an earlier unused link stops working."
        confirmLabel="Create link"
        confirmVariant="primary"
        onConfirm={() => run()}
      />
      {link ? <EnrolmentLink link={link} onDone={() => setLink(undefined)} /> : null}
    </>
  );
}
