"use client";

import { useState } from "react";
import { useConsoleAction } from "@/components/console/client";
import { JsonEditor, checkJsonObject } from "@/components/console/json-editor";
import { Button } from "@/components/console/ui";
import { saveMetadata } from "../actions";

type Kind = "public_metadata" | "private_metadata" | "unsafe_metadata";

const LABELS: Record<Kind, { label: string; hint: string }> = {
  public_metadata: { label: "Public metadata", hint: "Readable by the user (GET /me)" },
  private_metadata: { label: "Private metadata", hint: "Admins only" },
  unsafe_metadata: { label: "Unsafe metadata", hint: "Readable and writable by the user" },
};

/**
 * One kind of the user's metadata in a JSON editor: invalid JSON is shown inline and never sent; the
 * server saves only what changed (a merge patch through patchMetadata) and its errors (over 3000
 * characters, too deep) appear under the field.
 */
function MetadataKindEditor({
  tenantId,
  userId,
  kind,
  initial,
  maxChars,
  canWrite,
}: {
  tenantId: string;
  userId: string;
  kind: Kind;
  initial: string;
  maxChars: number;
  canWrite: boolean;
}) {
  const [original, setOriginal] = useState(initial);
  const [text, setText] = useState(initial);
  const [serverError, setServerError] = useState<string | undefined>();
  const { run, pending } = useConsoleAction(saveMetadata, {
    success: `${LABELS[kind].label} saved`,
    onSuccess: (saved) => {
      setOriginal(saved);
      setText(saved);
    },
  });
  const check = checkJsonObject(text, maxChars);
  const id = `metadata-${kind}`;
  return (
    <form
      className="space-y-2"
      aria-label={LABELS[kind].label}
      onSubmit={async (event) => {
        event.preventDefault();
        if (!check.ok) return;
        const result = await run(tenantId, userId, { kind, original, value: text });
        setServerError(result.ok ? undefined : (result.fieldErrors?.[kind] ?? result.error));
      }}
    >
      <JsonEditor
        id={id}
        label={LABELS[kind].label}
        hint={LABELS[kind].hint}
        value={text}
        onChange={(next) => {
          setText(next);
          setServerError(undefined);
        }}
        error={serverError}
        maxChars={maxChars}
        readOnly={!canWrite}
      />
      {canWrite ? (
        <div className="flex gap-2">
          <Button type="submit" disabled={pending || !check.ok || text === original}>
            {pending ? "Saving…" : `Save ${LABELS[kind].label.toLowerCase()}`}
          </Button>
          {text !== original ? (
            <Button
              variant="secondary"
              onClick={() => {
                setText(original);
                setServerError(undefined);
              }}
            >
              Discard changes
            </Button>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

export function MetadataEditor({
  tenantId,
  userId,
  metadata,
  maxChars,
  canWrite,
}: {
  tenantId: string;
  userId: string;
  /** Each kind as pretty-printed JSON ("{}" when unset); a kind left out is not shown (viewers: private). */
  metadata: Partial<Record<Kind, string>>;
  maxChars: number;
  canWrite: boolean;
}) {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      {(Object.keys(LABELS) as Kind[]).map((kind) => {
        const initial = metadata[kind];
        if (initial === undefined) {
          return (
            <p key={kind} className="text-sm text-slate-600 dark:text-slate-400">
              {LABELS[kind].label} is hidden from viewers.
            </p>
          );
        }
        return (
          <MetadataKindEditor
            key={kind}
            tenantId={tenantId}
            userId={userId}
            kind={kind}
            initial={initial}
            maxChars={maxChars}
            canWrite={canWrite}
          />
        );
      })}
    </div>
  );
}
