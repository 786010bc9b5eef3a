import Link from "next/link";
import type { ComponentProps, ReactNode } from "react";

/**
 * The console's shared server-safe components (Tailwind 4, light and dark by the system setting).
 * Interactive ones (dialogs, toasts, copy buttons, forms) are in ./client.tsx.
 */

export const cx = (...classes: (string | false | null | undefined)[]) => classes.filter(Boolean).join(" ");

const BUTTON = {
  primary:
    "bg-indigo-600 text-white hover:bg-indigo-500 focus-visible:outline-indigo-600 disabled:bg-indigo-300 dark:disabled:bg-indigo-900",
  secondary:
    "bg-white text-slate-900 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-600 dark:hover:bg-slate-700",
  danger: "bg-red-600 text-white hover:bg-red-500 focus-visible:outline-red-600 disabled:bg-red-300",
  ghost: "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800",
} as const;
export type ButtonVariant = keyof typeof BUTTON;

export const buttonClass = (variant: ButtonVariant = "primary", extra?: string) =>
  cx(
    "inline-flex items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-semibold shadow-xs",
    "focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed",
    BUTTON[variant],
    extra,
  );

export function Button({
  variant = "primary",
  className,
  type = "button",
  ...props
}: ComponentProps<"button"> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}

export function ButtonLink({
  variant = "primary",
  className,
  ...props
}: ComponentProps<typeof Link> & { variant?: ButtonVariant }) {
  return <Link className={buttonClass(variant, className)} {...props} />;
}

export const inputClass =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 aria-[invalid=true]:ring-red-500 dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-600";

/** A checkbox beside its label text. */
export const checkboxClass =
  "size-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600";

/** A checkbox in a list of choices, aligned with the first line of its (longer) label. */
export const choiceClass = "mt-0.5 size-4 rounded border-slate-300 accent-indigo-600";

/** A labelled field with its hint and its error (announced, tied by aria-describedby). */
export function FormField({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Props for an input inside FormField: id, name, invalid state and description. */
export const fieldProps = (id: string, error?: string) => ({
  id,
  name: id,
  "aria-invalid": error ? true : undefined,
  "aria-describedby": error ? `${id}-error` : `${id}-hint`,
  className: inputClass,
});

/** A checkbox with its label text beside it: a choice in a list, or an option on or off. */
export function Choice({
  children,
  ...input
}: Omit<ComponentProps<"input">, "type" | "className"> & { children: ReactNode }) {
  return (
    <label className="flex items-start gap-2 text-sm">
      <input type="checkbox" className={choiceClass} {...input} />
      <span>{children}</span>
    </label>
  );
}

/**
 * A group of checkboxes under a legend, with the group's error (announced, tied by aria-describedby;
 * `errorId` names it).
 */
export function CheckboxGroup({
  legend,
  errorId,
  error,
  children,
}: {
  legend: ReactNode;
  errorId?: string;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">{legend}</legend>
      {children}
      {error ? (
        <p id={errorId} role="alert" className="mt-1 text-xs font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The list with `value` added (`on`) or taken out: a checkbox's change to the values ticked. */
export const toggled = <T,>(list: readonly T[], value: T, on: boolean): T[] =>
  on ? [...list, value] : list.filter((item) => item !== value);

/**
 * The error for a list field (`scopes`, `redirectUris`…): the list's own, else the first of its items'
 * (`scopes.1`), as the server's field errors name them.
 */
export const listFieldError = (fieldErrors: Record<string, string>, field: string): string | undefined =>
  fieldErrors[field] ?? Object.entries(fieldErrors).find(([key]) => key.startsWith(`${field}.`))?.[1];

/** A form's error that no field shows: the action's message when no field is at fault, else `_`. */
export const formError = (
  error: string | undefined,
  fieldErrors: Record<string, string>,
): string | undefined => (error && Object.keys(fieldErrors).length === 0 ? error : fieldErrors._);

const DIALOG_WIDTH = {
  sm: "w-[min(32rem,calc(100vw-2rem))]",
  md: "w-[min(34rem,calc(100vw-2rem))]",
  lg: "w-[min(36rem,calc(100vw-2rem))]",
} as const;
export type DialogWidth = keyof typeof DIALOG_WIDTH;

/** The centred modal <dialog>'s look (confirmations, form dialogs, secrets shown once). */
export const dialogClass = (width: DialogWidth = "sm") =>
  cx(
    "m-auto rounded-lg bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:bg-slate-900 dark:text-slate-100",
    DIALOG_WIDTH[width],
  );

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
        {description ? (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>
        ) : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

export function Card({
  title,
  children,
  className,
}: {
  title?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      className={cx(
        "rounded-lg bg-white p-4 shadow-xs ring-1 ring-slate-200 sm:p-6 dark:bg-slate-900 dark:ring-slate-700",
        className,
      )}
    >
      {title ? (
        <h2 className="mb-4 text-base font-semibold text-slate-900 dark:text-white">{title}</h2>
      ) : null}
      {children}
    </section>
  );
}

/** What to show when a list is empty: what it is and what to do next. */
export function EmptyState({
  title,
  description,
  action,
}: {
  title: string;
  description: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="rounded-lg border-2 border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
      <p className="text-sm font-semibold text-slate-900 dark:text-white">{title}</p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>
      {action ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}

/**
 * A table that scrolls sideways on a phone instead of overflowing the page. With a caption, the part
 * that scrolls is a named, focusable region, so keyboard users can scroll a table that holds nothing
 * focusable (axe scrollable-region-focusable).
 */
export function Table({
  caption,
  head,
  children,
}: {
  caption?: string;
  head: ReactNode[];
  children: ReactNode;
}) {
  return (
    <div
      {...(caption ? { role: "region", "aria-label": caption, tabIndex: 0 } : {})}
      className="relative overflow-x-auto rounded-lg ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:ring-slate-700"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-700">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className="bg-slate-50 dark:bg-slate-800">
          <tr>
            {head.map((cell, index) => (
              <th
                key={index}
                scope="col"
                className="px-3 py-2 text-left font-semibold whitespace-nowrap text-slate-700 dark:text-slate-200"
              >
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 bg-white dark:divide-slate-800 dark:bg-slate-900">
          {children}
        </tbody>
      </table>
    </div>
  );
}

export function Td({ children, className }: { children?: ReactNode; className?: string }) {
  return (
    <td className={cx("px-3 py-2 align-top text-slate-700 dark:text-slate-300", className)}>{children}</td>
  );
}

const BADGE = {
  neutral:
    "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600",
  green: "bg-green-50 text-green-800 ring-green-600/30 dark:bg-green-950 dark:text-green-300",
  red: "bg-red-50 text-red-800 ring-red-600/30 dark:bg-red-950 dark:text-red-300",
  amber: "bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-200",
  indigo: "bg-indigo-50 text-indigo-800 ring-indigo-600/30 dark:bg-indigo-950 dark:text-indigo-200",
} as const;

export function Badge({ tone = "neutral", children }: { tone?: keyof typeof BADGE; children: ReactNode }) {
  return (
    <span
      className={cx(
        "inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
        BADGE[tone],
      )}
    >
      {children}
    </span>
  );
}

/** A definition list for detail pages. */
export function Details({ items }: { items: [ReactNode, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
      {items.map(([term, value], index) => (
        <div key={index} className="contents">
          <dt className="font-medium text-slate-600 dark:text-slate-400">{term}</dt>
          <dd className="break-all text-slate-900 dark:text-slate-100">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A date and time as the operator reads it (UTC, so every operator sees the same). */
export function Time({ value }: { value: Date | string | null | undefined }) {
  if (!value) return <span className="text-slate-600 dark:text-slate-400">never</span>;
  const date = typeof value === "string" ? new Date(value) : value;
  const iso = date.toISOString();
  return <time dateTime={iso}>{iso.slice(0, 16).replace("T", " ")} UTC</time>;
}

/** Previous and next links that keep the rest of the query (search, filters, sort) in the URL. */
export function Pagination({
  basePath,
  query,
  page,
  perPage,
  total,
}: {
  basePath: string;
  query: Record<string, string | undefined>;
  page: number;
  perPage: number;
  total: number;
}) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  const href = (target: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
    params.set("page", String(target));
    return `${basePath}?${params.toString()}`;
  };
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-2 text-sm">
      <p className="text-slate-600 dark:text-slate-400">
        Page {page} of {pages} · {total} in all
      </p>
      <div className="flex gap-2">
        {page > 1 ? (
          <ButtonLink variant="secondary" href={href(page - 1)} rel="prev">
            Previous
          </ButtonLink>
        ) : null}
        {page < pages ? (
          <ButtonLink variant="secondary" href={href(page + 1)} rel="next">
            Next
          </ButtonLink>
        ) : null}
      </div>
    </nav>
  );
}

const linkClass = "text-indigo-700 underline dark:text-indigo-300";

/** Where a tenant's first app starts: its hosted login page and the docs (next steps, the tenant overview). */
export function StartLinks({ hostedLogin, children }: { hostedLogin: string; children?: ReactNode }) {
  return (
    <ul className="list-disc space-y-1 pl-5 text-sm">
      <li>
        <a href={hostedLogin} target="_blank" rel="noreferrer" className={linkClass}>
          The hosted login page
        </a>{" "}
        (nothing to embed: send users to it)
      </li>
      <li>
        <a href="/docs" className={linkClass}>
          The docs: quick starts and API references
        </a>
      </li>
      {children}
    </ul>
  );
}
