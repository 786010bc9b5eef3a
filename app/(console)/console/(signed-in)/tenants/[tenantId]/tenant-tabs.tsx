"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/console/ui";

export function TenantTabs({ tabs }: { tabs: { href: string; label: string }[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Tenant" className="mb-6 overflow-x-auto border-b border-slate-200 dark:border-slate-800">
      <ul className="flex gap-4">
        {tabs.map((tab, index) => {
          const current = index === 0 ? pathname === tab.href : pathname.startsWith(tab.href);
          return (
            <li key={tab.href}>
              <Link
                href={tab.href}
                aria-current={current ? "page" : undefined}
                className={cx(
                  "block border-b-2 px-1 py-2 text-sm font-medium whitespace-nowrap",
                  current
                    ? "border-indigo-600 text-indigo-700 dark:text-indigo-300"
                    : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white",
                )}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
