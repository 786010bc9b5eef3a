"use client";

import { useId, useRef } from "react";
import { Button } from "@/components/console/ui";
import { CopyButton } from "@/components/console/client";

/**
 * A side panel (native modal <dialog>: focus kept inside, Escape closes) with one entry's JSON, as the
 * operator's role may read it (`note` says what was left out).
 */
export function EntryDrawer({
  label,
  title,
  json,
  note,
}: {
  label: string;
  title: string;
  json: string;
  note?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  return (
    <>
      <Button variant="secondary" aria-label={label} onClick={() => ref.current?.showModal()}>
        View
      </Button>
      <dialog
        ref={ref}
        aria-labelledby={`${id}-title`}
        className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-dvh w-[min(40rem,100vw)] max-w-full overflow-y-auto bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:bg-slate-900 dark:text-slate-100"
      >
        <div className="mb-4 flex items-start justify-between gap-2">
          <h2 id={`${id}-title`} className="text-lg font-semibold break-all">
            {title}
          </h2>
          <Button variant="secondary" onClick={() => ref.current?.close()}>
            Close
          </Button>
        </div>
        {note ? <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">{note}</p> : null}
        <pre
          data-testid="audit-entry-json"
          className="overflow-x-auto rounded bg-slate-100 p-3 font-mono text-xs whitespace-pre-wrap break-all dark:bg-slate-800"
        >
          {json}
        </pre>
        <div className="mt-4">
          <CopyButton value={json} label="Copy JSON" />
        </div>
      </dialog>
    </>
  );
}
