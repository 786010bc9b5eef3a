import { ButtonLink } from "@/components/console/ui";

export default function ConsoleNotFound() {
  return (
    <div className="rounded-lg bg-white p-6 ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        It does not exist, or your role does not give you access to it.
      </p>
      <ButtonLink className="mt-4" variant="secondary" href="/console">
        Back to the overview
      </ButtonLink>
    </div>
  );
}
