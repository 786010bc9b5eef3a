export default function Loading() {
  return (
    <div role="status" aria-live="polite" className="animate-pulse space-y-4">
      <span className="sr-only">Loading…</span>
      <div className="h-8 w-1/3 rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-32 rounded bg-slate-200 dark:bg-slate-800" />
    </div>
  );
}
