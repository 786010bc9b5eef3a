"use client";

import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  useTransition,
  type ReactNode,
  type RefObject,
} from "react";
import { Button, type ButtonVariant, cx, dialogClass, type DialogWidth, fieldProps } from "./ui";

/**
 * The console's interactive shared components: toasts, confirmation and form dialogs, copy button,
 * action hook.
 */

type Toast = { id: number; tone: "success" | "error"; message: string };
/** Shows a toast; `null` takes the current one away (a later success clears an earlier error). */
type Notify = (tone: Toast["tone"], message: string | null) => void;
const ToastContext = createContext<Notify>(() => {});

/**
 * Wraps the console: one toast at a time, bottom-right, announced to screen readers. A new one replaces
 * the last (no stack of duplicates after repeated clicks); errors stay until the next outcome replaces
 * them, successes go after 5 seconds.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(0);
  const push = useCallback<Notify>((tone, message) => {
    const id = ++next.current;
    setToasts(message === null ? [] : [{ id, tone, message }]);
    if (message !== null && tone === "success") {
      setTimeout(() => setToasts((current) => current.filter((toast) => toast.id !== id)), 5000);
    }
  }, []);
  return (
    <ToastContext.Provider value={push}>
      {children}
      <div
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-end gap-2 p-4"
      >
        {toasts.map((toast) => (
          <div
            key={toast.id}
            role={toast.tone === "error" ? "alert" : "status"}
            data-testid="toast"
            className={cx(
              "pointer-events-auto max-w-sm rounded-md px-4 py-3 text-sm font-medium shadow-lg ring-1",
              toast.tone === "success"
                ? "bg-green-50 text-green-900 ring-green-600/30 dark:bg-green-950 dark:text-green-100"
                : "bg-red-50 text-red-900 ring-red-600/30 dark:bg-red-950 dark:text-red-100",
            )}
          >
            {toast.message}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);

/** The sign-in page, returning to this page afterwards. */
const signInUrl = () =>
  `/console/sign-in?next=${encodeURIComponent(location.pathname + location.search + location.hash)}`;

/**
 * After a refused submit: focus (and scroll to) the first field marked invalid, in document order,
 * once React has rendered the errors.
 */
export function focusFirstInvalid(): void {
  // React commits the errors (and a wizard shows the step that holds them) in a later frame, later still on a
  // busy machine: look each frame for up to a second.
  let frames = 60;
  const attempt = () => {
    const field = document.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!field) {
      if (--frames > 0) requestAnimationFrame(attempt);
      return;
    }
    field.focus({ preventScroll: true });
    field.scrollIntoView({ block: "center", behavior: "smooth" });
  };
  requestAnimationFrame(attempt);
}

/** What server actions answer (lib/console/guard.ts ActionResult). */
export type ActionResult<T = undefined> =
  { ok: true; data: T } | { ok: false; error: string; code?: string; fieldErrors?: Record<string, string> };

/**
 * Runs a server action with pending state, a toast for the outcome and field errors for the form.
 * `onSuccess` runs before the success toast (refresh, close a dialog, show a secret once).
 */
export function useConsoleAction<A extends unknown[], T>(
  action: (...args: A) => Promise<ActionResult<T>>,
  options: { success?: string | ((data: T) => string); onSuccess?: (data: T) => void } = {},
) {
  const toast = useToast();
  const [pending, startTransition] = useTransition();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | undefined>();
  const run = useCallback(
    (...args: A) =>
      new Promise<ActionResult<T>>((resolve) => {
        startTransition(async () => {
          let result: ActionResult<T>;
          try {
            result = await action(...args);
          } catch {
            result = {
              ok: false,
              error: "Sesame could not be reached or did not answer. Check your connection and try again.",
            };
          }
          if (result.ok) {
            setFieldErrors({});
            setError(undefined);
            options.onSuccess?.(result.data);
            const message =
              typeof options.success === "function" ? options.success(result.data) : options.success;
            toast("success", message ?? null);
          } else if (result.code === "CONSOLE_SESSION_ENDED") {
            // The console session ended: sign in again, then back to this page (issue 29, point 8).
            location.assign(signInUrl());
          } else {
            setFieldErrors(result.fieldErrors ?? {});
            setError(result.error);
            toast("error", result.error);
            if (result.fieldErrors && Object.keys(result.fieldErrors).length > 0) focusFirstInvalid();
          }
          resolve(result);
        });
      }),
    [action, options, toast],
  );
  return { run, pending, fieldErrors, error };
}

/** Copies a value; says so for screen readers too. */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="secondary"
      aria-label={copied ? "Copied" : label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          // Clipboard refused (insecure context): the value is selectable on the page.
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? "Copied" : label}
    </Button>
  );
}

/**
 * A modal dialog (native <dialog>: focus trapped, Escape closes). With `confirmText`, the confirm
 * button stays disabled until that text is typed (deleting a user: its email).
 */
export function ConfirmDialog({
  trigger,
  triggerVariant = "danger",
  title,
  description,
  confirmLabel = "Confirm",
  confirmVariant = "danger",
  confirmText,
  onConfirm,
}: {
  trigger: ReactNode;
  triggerVariant?: ButtonVariant;
  title: string;
  description: ReactNode;
  confirmLabel?: string;
  confirmVariant?: ButtonVariant;
  confirmText?: string;
  onConfirm: () => Promise<unknown> | void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const id = useId();
  return (
    <>
      <Button variant={triggerVariant} onClick={() => ref.current?.showModal()}>
        {trigger}
      </Button>
      <dialog
        ref={ref}
        aria-labelledby={`${id}-title`}
        className={dialogClass("sm")}
        onClose={() => setTyped("")}
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        <div className="mt-2 text-sm text-slate-600 dark:text-slate-300">{description}</div>
        {confirmText ? (
          <div className="mt-4 space-y-1">
            <label htmlFor={`${id}-confirm`} className="block text-sm font-medium">
              Type <span className="font-mono">{confirmText}</span> to confirm
            </label>
            <input
              {...fieldProps(`${id}-confirm`)}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
            />
          </div>
        ) : null}
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => ref.current?.close()}>
            Cancel
          </Button>
          <Button
            variant={confirmVariant}
            disabled={busy || (confirmText !== undefined && typed !== confirmText)}
            onClick={async () => {
              setBusy(true);
              try {
                await onConfirm();
              } finally {
                setBusy(false);
                ref.current?.close();
              }
            }}
          >
            {confirmLabel}
          </Button>
        </div>
      </dialog>
    </>
  );
}

/**
 * A button that opens a modal form (native <dialog>: focus trapped, Escape closes): the title names
 * the dialog, then the fields, the form's own error (one no field shows), and Cancel / submit. The
 * caller keeps `dialogRef` to close it on success.
 */
export function FormDialog({
  trigger,
  triggerVariant = "primary",
  title,
  description,
  width = "sm",
  dialogRef,
  onSubmit,
  noValidate,
  error,
  pending,
  submitLabel,
  pendingLabel,
  children,
}: {
  trigger: ReactNode;
  triggerVariant?: ButtonVariant;
  title: string;
  description?: ReactNode;
  width?: DialogWidth;
  dialogRef: RefObject<HTMLDialogElement | null>;
  onSubmit: () => void;
  /** Leave checking to the server (its messages are shown per field). */
  noValidate?: boolean;
  error?: string | undefined;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <>
      <Button variant={triggerVariant} onClick={() => dialogRef.current?.showModal()}>
        {trigger}
      </Button>
      <dialog ref={dialogRef} aria-labelledby={`${id}-title`} className={dialogClass(width)}>
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        {description ? (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>
        ) : null}
        <form
          className="mt-4 space-y-4"
          noValidate={noValidate}
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          {children}
          {error ? (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
              {error}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => dialogRef.current?.close()}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? pendingLabel : submitLabel}
            </Button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** Ids for a form's fields, unique on the page: `id("email")` → `«prefix»-email` (no colons, CSS-safe). */
export function useFieldIds(): (field: string) => string {
  const prefix = useId().replace(/:/g, "");
  return (field) => `${prefix}-${field}`;
}

/** A secret shown exactly once, with a copy button; it is gone from the page after "Done". */
export function SecretOnce({
  label,
  value,
  onDone,
  note = "Copy it now: it is shown only this once.",
}: {
  label: string;
  value: string;
  onDone: () => void;
  /** Why it is not shown again (a hash is kept, or it is sealed for signing). */
  note?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => ref.current?.showModal(), []);
  return (
    <dialog ref={ref} aria-labelledby="secret-once-title" className={dialogClass("lg")} onClose={onDone}>
      <h2 id="secret-once-title" className="text-lg font-semibold">
        {label}
      </h2>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{note}</p>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <code
          data-testid="secret-value"
          className="min-w-0 flex-1 rounded bg-slate-100 px-2 py-2 text-sm break-all dark:bg-slate-800"
        >
          {value}
        </code>
        <CopyButton value={value} />
      </div>
      <div className="mt-6 flex justify-end">
        <Button onClick={() => ref.current?.close()}>Done</Button>
      </div>
    </dialog>
  );
}
