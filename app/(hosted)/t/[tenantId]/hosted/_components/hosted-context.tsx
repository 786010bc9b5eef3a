"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { HostedBranding } from "@/lib/hosted/branding";
import type { HostedLang } from "@/lib/hosted/lang";

/** What the tenant layout knows before a page renders: for the loading state. */
export interface HostedContextValue {
  branding: HostedBranding;
  /** From Accept-Language; a page's `?lang=` takes precedence. */
  lang: HostedLang;
}

const HostedContext = createContext<HostedContextValue | null>(null);

export function HostedProvider({ value, children }: { value: HostedContextValue; children: ReactNode }) {
  return <HostedContext.Provider value={value}>{children}</HostedContext.Provider>;
}

/** Null outside a tenant's hosted pages (the error boundary sits above the tenant layout). */
export function useHostedContext(): HostedContextValue | null {
  return useContext(HostedContext);
}
