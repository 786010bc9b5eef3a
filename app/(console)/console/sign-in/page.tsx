import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentOperator } from "@/lib/console/guard";
import { consoleReturnPath } from "@/lib/console/return-path";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The console's sign-in. `?next=` (a console page, checked by consoleReturnPath) is where the operator
 * goes afterwards: the page they had open when the session ended. `?signed_out=1` confirms a sign-out.
 */
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const search = await searchParams;
  const next = consoleReturnPath(first(search.next));
  if (await currentOperator()) redirect(next);
  const signedOut = first(search.signed_out) !== undefined;
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700">
        <h1 className="text-xl font-semibold">Sign in to the Sesame console</h1>
        {signedOut ? (
          <p
            role="status"
            data-testid="signed-out"
            className="mt-3 rounded-md bg-green-50 px-3 py-2 text-sm font-medium text-green-900 ring-1 ring-green-600/30 dark:bg-green-950 dark:text-green-100"
          >
            You have signed out of the console.
          </p>
        ) : next !== "/console" ? (
          <p
            role="status"
            className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-100"
          >
            Your console session has ended. Sign in again to go back to the page you had open.
          </p>
        ) : null}
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Operators sign in with a passkey.</p>
        <SignInForm next={next} />
      </div>
    </main>
  );
}
