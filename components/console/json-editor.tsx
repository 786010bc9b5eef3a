"use client";

import { Button, cx, inputClass } from "./ui";

/** What checkJsonObject found: the parsed object, or what is wrong with the text (line and column). */
export type JsonCheck = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Line and column (from 1) of a character offset in `text`. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/**
 * Parses `text` as a JSON object (not an array, not a scalar), at most `maxChars` characters as compact
 * JSON when given. The error says where the text stops being JSON, as the browser's parser reports it.
 */
export function checkJsonObject(text: string, maxChars?: number): JsonCheck {
  if (text.trim() === "") return { ok: false, error: "Enter a JSON object; {} for none" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    const where =
      position && !/line \d+/.test(message) ? ` (${lineAndColumn(text, Number(position[1]))})` : "";
    return { ok: false, error: `Not valid JSON: ${message}${where}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: "Must be a JSON object, in braces: { … }" };
  }
  if (maxChars !== undefined) {
    const length = [...JSON.stringify(value)].length;
    if (length > maxChars)
      return { ok: false, error: `Too long: ${length} of at most ${maxChars} characters` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * A JSON text area that checks what is typed as it is typed: the parse error (or the server's error for
 * the field) is shown under it and announced, and the field is marked invalid. Controlled: the parent
 * keeps the text and checks it with checkJsonObject before it submits anything.
 */
export function JsonEditor({
  id,
  label,
  hint,
  value,
  onChange,
  error,
  maxChars,
  rows = 8,
  readOnly = false,
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  onChange: (text: string) => void;
  /** An error from the server for this field; a local parse error takes precedence. */
  error?: string;
  maxChars?: number;
  rows?: number;
  readOnly?: boolean;
}) {
  const check = checkJsonObject(value, maxChars);
  const shown = !check.ok ? check.error : error;
  const size = check.ok ? [...JSON.stringify(check.value)].length : undefined;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
          {label}
        </label>
        {!readOnly ? (
          <Button
            variant="ghost"
            className="px-2 py-1 text-xs"
            disabled={!check.ok}
            aria-label={`Format ${label}`}
            onClick={() => check.ok && onChange(JSON.stringify(check.value, null, 2))}
          >
            Format
          </Button>
        ) : null}
      </div>
      <textarea
        id={id}
        name={id}
        rows={rows}
        value={value}
        readOnly={readOnly}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? `${id}-error` : `${id}-hint`}
        className={cx(inputClass, "font-mono text-xs leading-5")}
      />
      {shown ? (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-red-700 dark:text-red-400">
          {shown}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
          {size !== undefined && maxChars !== undefined ? (
            <span>
              {hint ? " · " : ""}
              {size} of {maxChars} characters
            </span>
          ) : null}
        </p>
      )}
    </div>
  );
}
