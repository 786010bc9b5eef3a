import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentOperator } from "@/lib/console/guard";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage() {
  if (await currentOperator()) redirect("/console");
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700">
        <h1 className="text-xl font-semibold">Sign in to the Sesame console</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Operators sign in with a passkey.</p>
        <SignInForm />
      </div>
    </main>
  );
}
