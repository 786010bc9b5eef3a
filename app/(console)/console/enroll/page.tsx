import type { Metadata } from "next";
import { EnrollForm } from "./enroll-form";

export const metadata: Metadata = { title: "Register your passkey", referrer: "no-referrer" };

/** A one-time setup or enrolment link lands here; the token is in the URL fragment (never sent here). */
export default function EnrollPage() {
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-md rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700">
        <h1 className="text-xl font-semibold">Register your operator passkey</h1>
        <EnrollForm />
      </div>
    </main>
  );
}
