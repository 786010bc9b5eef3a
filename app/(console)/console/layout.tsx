import type { Metadata } from "next";
import type { ReactNode } from "react";
import { ToastProvider } from "@/components/console/client";

export const metadata: Metadata = {
  title: { template: "%s · Sesame console", default: "Sesame console" },
  robots: { index: false, follow: false },
};

export default function ConsoleRootLayout({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-dvh bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <ToastProvider>{children}</ToastProvider>
    </div>
  );
}
