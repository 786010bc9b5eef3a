import type { ReactNode } from "react";
import { requireOperator } from "@/lib/console/guard";
import { NavLinks } from "@/components/console/nav-links";
import { SignOutButton } from "./sign-out-button";

/** Every page under here needs a live console session (checked again by each page and action). */
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const { operator } = await requireOperator();
  const links = [
    { href: "/console", label: "Overview" },
    { href: "/console/tenants", label: "Tenants" },
    ...(operator.role === "owner" ? [{ href: "/console/operators", label: "Operators" }] : []),
    { href: "/console/account", label: "Your account" },
  ];
  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
          <a href="/console" className="text-base font-semibold text-slate-900 dark:text-white">
            Sesame console
          </a>
          <NavLinks label="Console" links={links} variant="pills" />
          <div className="ml-auto flex items-center gap-3 text-sm">
            <span
              className="hidden text-slate-600 sm:inline dark:text-slate-400"
              data-testid="operator-email"
            >
              {operator.email} · {operator.role}
            </span>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
        {children}
      </main>
    </div>
  );
}
