"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { BrandingPreview } from "@/components/console/branding-preview";
import { useConsoleAction } from "@/components/console/client";
import { Button, Card, FormField, cx, fieldProps } from "@/components/console/ui";
import {
  saveAuditLog,
  saveBranding,
  saveEmail,
  saveGeneral,
  savePasscodes,
  saveSessions,
  saveSignInMethods,
  saveUaf,
  saveWebauthnPolicy,
} from "../actions";
import {
  DURATION_UNITS,
  durationError,
  fromFieldValue,
  setAt,
  type FieldDef,
  type FieldValue,
  type SectionDef,
  type SectionId,
} from "./sections";

const ACTIONS: Record<SectionId, typeof saveGeneral> = {
  general: saveGeneral,
  webauthn: saveWebauthnPolicy,
  methods: saveSignInMethods,
  sessions: saveSessions,
  passcodes: savePasscodes,
  email: saveEmail,
  branding: saveBranding,
  uaf: saveUaf,
  audit: saveAuditLog,
};

/** The error of a field: its own, or the first of its list's items (`origins.1` → "line 2: …"). */
function errorOf(errors: Record<string, string>, path: string): string | undefined {
  if (errors[path]) return errors[path];
  for (const [key, message] of Object.entries(errors)) {
    const item = key.startsWith(`${path}.`) ? Number(key.slice(path.length + 1).split(".")[0]) : NaN;
    if (Number.isInteger(item)) return `line ${item + 1}: ${message}`;
  }
  return undefined;
}

/**
 * One settings section: its own form and server action. Read-only (viewer): fields disabled, no save
 * button. After a save the page is refreshed, so the form shows the stored (normalised) values.
 */
export function SettingsForm({
  tenantId,
  tenantName,
  section,
  initial,
  readOnly,
  note,
}: {
  tenantId: string;
  tenantName: string;
  section: SectionDef;
  initial: Record<string, FieldValue>;
  readOnly: boolean;
  /** Extra text under the description (e.g. the instance's mail sender). */
  note?: string;
}) {
  const router = useRouter();
  const [values, setValues] = useState(initial);
  const { run, pending, fieldErrors } = useConsoleAction(ACTIONS[section.id], {
    success: ({ changed }) => (changed.length > 0 ? `${section.title} saved` : "Nothing changed"),
    onSuccess: () => router.refresh(),
  });
  const set = (path: string, value: FieldValue) => setValues((current) => ({ ...current, [path]: value }));
  const known = (key: string) => section.fields.some((f) => key === f.path || key.startsWith(`${f.path}.`));
  const otherErrors = Object.entries(fieldErrors).filter(([key]) => !known(key));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form: Record<string, unknown> = {};
    for (const field of section.fields) setAt(form, field.path, fromFieldValue(field, values[field.path]!));
    void run(tenantId, form);
  };

  const field = (def: FieldDef) => (
    <Field
      key={def.path}
      id={`${section.id}-${def.path}`}
      field={def}
      value={values[def.path]!}
      error={
        def.kind === "duration"
          ? ((message) => message && durationError(message))(errorOf(fieldErrors, def.path))
          : errorOf(fieldErrors, def.path)
      }
      disabled={readOnly || pending}
      onChange={(value) => set(def.path, value)}
    />
  );
  // Consecutive fields of one group in a fieldset with its legend; the others in the section's grid.
  const groups: { legend?: string; fields: FieldDef[] }[] = [];
  for (const def of section.fields) {
    const last = groups.at(-1);
    if (last && last.legend === def.group) last.fields.push(def);
    else groups.push({ legend: def.group, fields: [def] });
  }
  const grid = "grid grid-cols-1 gap-x-6 gap-y-4 sm:grid-cols-2";
  const fields = (
    <div className="space-y-5">
      {groups.map((group, index) =>
        group.legend ? (
          <fieldset key={index} className="border-t border-slate-200 pt-3 dark:border-slate-700">
            <legend className="pr-2 text-sm font-semibold text-slate-900 dark:text-white">
              {group.legend}
            </legend>
            <div className={cx(grid, "mt-2")}>{group.fields.map(field)}</div>
          </fieldset>
        ) : (
          <div key={index} className={grid}>
            {group.fields.map(field)}
          </div>
        ),
      )}
    </div>
  );

  return (
    <Card className="scroll-mt-6">
      <form
        onSubmit={submit}
        noValidate
        aria-labelledby={`${section.id}-title`}
        data-section={section.id}
        id={section.id}
      >
        <h2 id={`${section.id}-title`} className="text-base font-semibold text-slate-900 dark:text-white">
          {section.title}
        </h2>
        <p className="mt-1 mb-4 text-sm text-slate-600 dark:text-slate-400">
          {section.description}
          {note ? <> {note}</> : null}
        </p>
        {section.id === "branding" ? (
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            {fields}
            <BrandingPreview
              tenantName={tenantName}
              displayName={String(values["branding.displayName"] ?? "")}
              primaryColor={String(values["branding.primaryColor"] ?? "")}
              backgroundColor={String(values["branding.backgroundColor"] ?? "")}
              textColor={String(values["branding.textColor"] ?? "")}
              logoUrl={String(values["branding.logoUrl"] ?? "")}
            />
          </div>
        ) : (
          fields
        )}
        {otherErrors.length > 0 ? (
          <ul role="alert" className="mt-4 space-y-1 text-xs font-medium text-red-700 dark:text-red-400">
            {otherErrors.map(([key, message]) => (
              <li key={key}>{key === "_" ? message : `${key}: ${message}`}</li>
            ))}
          </ul>
        ) : null}
        {readOnly ? null : (
          <div className="mt-5 flex justify-end border-t border-slate-200 pt-4 dark:border-slate-700">
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : `Save ${section.title.toLowerCase()}`}
            </Button>
          </div>
        )}
      </form>
    </Card>
  );
}

function Field({
  id,
  field,
  value,
  error,
  disabled,
  onChange,
}: {
  id: string;
  field: FieldDef;
  value: FieldValue;
  error: string | undefined;
  disabled: boolean;
  onChange: (value: FieldValue) => void;
}) {
  const safeId = id.replaceAll(".", "-");
  if (field.kind === "toggle") {
    return (
      <div className="flex items-start gap-3 sm:col-span-1">
        <input
          id={safeId}
          name={field.path}
          type="checkbox"
          checked={value === true}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={error ? `${safeId}-error` : field.hint ? `${safeId}-hint` : undefined}
          aria-invalid={error ? true : undefined}
          className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-indigo-600"
        />
        <div>
          <label htmlFor={safeId} className="text-sm font-medium text-slate-800 dark:text-slate-200">
            {field.label}
          </label>
          {field.hint && !error ? (
            <p id={`${safeId}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
              {field.hint}
            </p>
          ) : null}
          {error ? (
            <p
              id={`${safeId}-error`}
              role="alert"
              className="text-xs font-medium text-red-700 dark:text-red-400"
            >
              {error}
            </p>
          ) : null}
        </div>
      </div>
    );
  }
  const props = { ...fieldProps(safeId, error), name: field.path, disabled };
  const text = String(value);
  const wide = field.kind === "lines" || field.kind === "pems";
  return (
    <div className={cx(wide && "sm:col-span-2")}>
      <FormField id={safeId} label={field.label} hint={field.hint} error={error}>
        {field.kind === "select" ? (
          <select {...props} value={text} onChange={(event) => onChange(event.target.value)}>
            {field.options!.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        ) : wide ? (
          <textarea
            {...props}
            rows={field.kind === "pems" ? 5 : 3}
            value={text}
            spellCheck={false}
            className={cx(props.className, "font-mono text-xs")}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : field.kind === "duration" ? (
          <DurationInput
            props={props}
            label={field.label}
            text={text}
            disabled={disabled}
            onChange={onChange}
          />
        ) : field.kind === "color" ? (
          <div className="flex items-center gap-2">
            <input
              type="color"
              aria-label={`${field.label}: picker`}
              value={/^#[0-9a-fA-F]{6}$/.test(text.trim()) ? text.trim().toLowerCase() : "#000000"}
              disabled={disabled}
              onChange={(event) => onChange(event.target.value)}
              className="h-9 w-12 shrink-0 cursor-pointer rounded border border-slate-300 bg-transparent dark:border-slate-600"
            />
            <input
              {...props}
              value={text}
              spellCheck={false}
              autoComplete="off"
              onChange={(event) => onChange(event.target.value)}
            />
          </div>
        ) : (
          <input
            {...props}
            type={field.kind === "number" ? "number" : "text"}
            inputMode={field.kind === "number" ? "numeric" : undefined}
            value={text}
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => onChange(event.target.value)}
          />
        )}
      </FormField>
    </div>
  );
}

/** A duration: an amount and its unit (minutes, hours, days…); the form holds "12 hours". */
function DurationInput({
  props,
  label,
  text,
  disabled,
  onChange,
}: {
  props: ReturnType<typeof fieldProps> & { name: string; disabled: boolean };
  label: string;
  text: string;
  disabled: boolean;
  onChange: (value: FieldValue) => void;
}) {
  const [amount = "", unit = "seconds"] = text.trim().split(/\s+/);
  return (
    <div className="flex items-center gap-2">
      <input
        {...props}
        type="text"
        inputMode="decimal"
        value={amount}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => onChange(`${event.target.value.trim()} ${unit}`)}
      />
      <select
        aria-label={`${label}: unit`}
        name={`${props.name}.unit`}
        value={unit}
        disabled={disabled}
        onChange={(event) => onChange(`${amount} ${event.target.value}`)}
        className={cx(props.className, "w-auto shrink-0")}
      >
        {[...DURATION_UNITS].reverse().map((option) => (
          <option key={option.unit} value={option.unit}>
            {option.unit}
          </option>
        ))}
      </select>
    </div>
  );
}
