import type { ReactNode } from "react";
import { Card } from "@/components/console/ui";

/** A section of the user page: a card with its title, an optional count and actions. */
export function Section({
  title,
  count,
  children,
  actions,
}: {
  title: string;
  count?: number;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900 dark:text-white">
          {title}
          {count !== undefined ? (
            <span className="ml-2 text-sm font-normal text-slate-600 dark:text-slate-400">({count})</span>
          ) : null}
        </h2>
        {actions}
      </div>
      {children}
    </Card>
  );
}

/** "none", "unknown": a value that is not there, in a quieter colour. */
export const none = (text: string) => <span className="text-slate-600 dark:text-slate-400">{text}</span>;
