import type { ReactNode } from "react";

/**
 * The console's Table for tables that may hold nothing focusable: the part that scrolls sideways on a
 * phone is itself focusable and named by the caption, so keyboard users can scroll it (axe
 * scrollable-region-focusable). Same look as Table in components/console/ui.tsx.
 */
export function ScrollTable({
  caption,
  head,
  children,
}: {
  caption: string;
  head: ReactNode[];
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className="overflow-x-auto rounded-lg ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:ring-slate-700"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-700">
        <caption className="sr-only">{caption}</caption>
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
