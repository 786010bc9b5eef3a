import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { examplesEnabled } from "@/lib/examples";

export const dynamic = "force-dynamic";

/**
 * Every example page: 404 unless the examples serve this client (SESAME_EXAMPLES; by default only
 * clients on this machine, when Sesame runs on localhost), and a notice that they act with the demo
 * tenant's keys without any sign-in.
 */
export default async function ExamplesLayout({ children }: { children: ReactNode }) {
  if (!(await examplesEnabled())) notFound();
  return (
    <>
      <aside
        aria-label="Demo notice"
        data-testid="examples-notice"
        className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950"
      >
        Demo page for local development: it uses the demo tenant&apos;s API keys and asks nobody to sign in.
        By default they answer only on this machine, and only when Sesame runs on localhost; set{" "}
        <code>SESAME_EXAMPLES=false</code> to turn them off.
      </aside>
      {children}
    </>
  );
}
