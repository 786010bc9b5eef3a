import Link from "next/link";
import { RedocView } from "@/components/docs/redoc-view";
import { SURFACE_DOCUMENTS, documentedSurfaces } from "@/lib/openapi";

export const metadata = { title: "Sesame API reference" };

export default async function DocsPage({ searchParams }: { searchParams: Promise<{ api?: string }> }) {
  const surfaces = documentedSurfaces();
  const requested = (await searchParams).api;
  const current = surfaces.find((surface) => surface === requested) ?? surfaces[0] ?? "health";

  return (
    <main className="min-h-screen bg-white">
      <nav
        aria-label="API surfaces"
        className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-6 py-3"
      >
        <Link href="/" className="mr-4 font-semibold text-slate-900">
          Sesame API reference
        </Link>
        {surfaces.map((surface) => (
          <Link
            key={surface}
            href={`/docs?api=${surface}`}
            aria-current={surface === current ? "page" : undefined}
            className={`rounded px-3 py-1 text-sm ${surface === current ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
          >
            {SURFACE_DOCUMENTS[surface]?.title.replace(/^Sesame /, "")}
          </Link>
        ))}
        <a href={`/openapi/${current}.json`} className="ml-auto text-sm text-slate-600 underline">
          {current}.json
        </a>
      </nav>
      <RedocView specUrl={`/openapi/${current}.json`} />
    </main>
  );
}
