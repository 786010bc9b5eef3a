"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/console/ui";

/** Top navigation; the current section is marked for screen readers and by colour. */
export function ConsoleNav({ links }: { links: { href: string; label: string }[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Console" className="order-last w-full overflow-x-auto sm:order-none sm:w-auto">
      <ul className="flex gap-1">
        {links.map((link) => {
          const current = link.href === "/console" ? pathname === "/console" : pathname.startsWith(link.href);
          return (
            <li key={link.href}>
              <Link
                href={link.href}
                aria-current={current ? "page" : undefined}
                className={cx(
                  "block rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap",
                  current
                    ? "bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-white"
                    : "text-slate-600 hover:bg-slate-50 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800",
                )}
              >
                {link.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
