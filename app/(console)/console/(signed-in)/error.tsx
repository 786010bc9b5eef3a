"use client";

import { Button } from "@/components/console/ui";

/** Any failure of a console page: what happened (without internals) and a retry. */
export default function ConsoleError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <div
      role="alert"
      className="rounded-lg bg-red-50 p-6 ring-1 ring-red-200 dark:bg-red-950 dark:ring-red-900"
    >
      <h1 className="text-lg font-semibold text-red-900 dark:text-red-100">This page could not be loaded</h1>
      <p className="mt-1 text-sm text-red-800 dark:text-red-200">
        Something went wrong{error.digest ? ` (reference ${error.digest})` : ""}. Try again; if it persists,
        check the server log.
      </p>
      <Button className="mt-4" variant="secondary" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
