"use client";

import { useState, type ReactNode } from "react";

/** The look of the demos (passkeys, UAF relying party, authenticator), in one place. */
export const button =
  "rounded bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-40";
export const quietButton =
  "rounded border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-100 disabled:opacity-40";
export const input = "rounded border border-slate-300 px-2 py-1.5 text-sm";

export function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={id} className="font-medium">
        {title}
      </h2>
      {children}
    </section>
  );
}

export interface Message {
  text: string;
  error?: boolean;
}

export function StatusMessage({ message }: { message: Message | null }) {
  if (!message) return null;
  return (
    <p role="status" className={`mt-3 text-sm ${message.error ? "text-red-700" : "text-emerald-700"}`}>
      {message.text}
    </p>
  );
}

/** A term and its value; the value is labelled by the term, so tests and screen readers find it by name. */
export function Field({ id, term, children }: { id: string; term: string; children: ReactNode }) {
  return (
    <>
      <dt id={id} className="text-slate-500">
        {term}
      </dt>
      <dd aria-labelledby={id} className="break-all">
        {children}
      </dd>
    </>
  );
}

/** The JSON text of a UAF message, indented for reading. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A list row with an editable name, Rename and Delete (a passkey, a UAF device). */
export function RenamableRow({
  label,
  name: initial,
  maxLength,
  details,
  onRename,
  onDelete,
}: {
  /** "Passkey", "Authenticator": names the row and its name field for screen readers and tests. */
  label: string;
  name: string;
  maxLength: number;
  details: ReactNode;
  onRename: (name: string) => Promise<void>;
  onDelete: () => Promise<void>;
}) {
  const [name, setName] = useState(initial);
  return (
    <li className="flex flex-wrap items-center gap-2 py-2" aria-label={`${label} ${initial}`}>
      <input
        aria-label={`${label} name`}
        className={`${input} grow`}
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={maxLength}
      />
      <button type="button" className={button} onClick={() => void onRename(name)}>
        Rename
      </button>
      <button type="button" className={button} onClick={() => void onDelete()}>
        Delete
      </button>
      <span className="w-full text-xs text-slate-500">{details}</span>
    </li>
  );
}
