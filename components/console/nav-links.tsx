"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "./ui";

const STYLES = {
  /** The console's top navigation. */
  pills: {
    nav: "order-last w-full overflow-x-auto sm:order-none sm:w-auto",
    list: "flex gap-1",
    link: "block rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap",
    current: "bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-white",
    other:
      "text-slate-600 hover:bg-slate-50 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800",
  },
  /** A tenant's sections. */
  tabs: {
    nav: "mb-6 overflow-x-auto border-b border-slate-200 dark:border-slate-800",
    list: "flex gap-4",
    link: "block border-b-2 px-1 py-2 text-sm font-medium whitespace-nowrap",
    current: "border-indigo-600 text-indigo-700 dark:text-indigo-300",
    other: "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white",
  },
} as const;

/**
 * A row of navigation links; the current one is marked for screen readers and by colour: the link whose
 * path is the page's or, failing that, the longest one the page lies below (a tenant's Settings at
 * `/console/tenants/{id}` is the prefix of its other tabs, so it is current only on its own path).
 */
export function NavLinks({
  label,
  links,
  variant,
}: {
  label: string;
  links: { href: string; label: string }[];
  variant: keyof typeof STYLES;
}) {
  const pathname = usePathname();
  const style = STYLES[variant];
  const below = (href: string) => pathname === href || pathname.startsWith(`${href}/`);
  const exact = links.find((link) => link.href === pathname);
  const match =
    exact ??
    links
      .filter((link, index) => index > 0 && below(link.href))
      .sort((a, b) => b.href.length - a.href.length)[0];
  return (
    <nav aria-label={label} className={style.nav}>
      <ul className={style.list}>
        {links.map((link) => {
          const current = link === match;
          return (
            <li key={link.href}>
              <Link
                href={link.href}
                aria-current={current ? "page" : undefined}
                className={cx(style.link, current ? style.current : style.other)}
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
