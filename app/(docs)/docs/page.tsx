import Link from "next/link";
import { DocsOverview } from "@/components/docs/guides";
import { RedocView } from "@/components/docs/redoc-view";
import { SURFACE_DOCUMENTS, documentedSurfaces } from "@/lib/openapi";

export const metadata = { title: "Sesame docs" };

/**
 * `/docs`: an overview with a quick start per surface; `/docs?api=<surface>` renders that surface's
 * OpenAPI document (Redoc, served from Sesame itself).
 */
export default async function DocsPage({ searchParams }: { searchParams: Promise<{ api?: string }> }) {
  const surfaces = documentedSurfaces();
  const requested = (await searchParams).api;
  const current = surfaces.find((surface) => surface === requested);
  const title = (surface: string) =>
    SURFACE_DOCUMENTS[surface as keyof typeof SURFACE_DOCUMENTS]?.title ?? surface;

  return (
    <main className="min-h-screen bg-white">
      <nav
        aria-label="Docs"
        className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-6 py-3"
      >
        <Link
          href="/docs"
          aria-current={current === undefined ? "page" : undefined}
          className={`mr-2 rounded px-3 py-1 font-semibold ${current === undefined ? "bg-slate-900 text-white" : "text-slate-900 hover:bg-slate-100"}`}
        >
          Sesame docs
        </Link>
        {surfaces.map((surface) => (
          <Link
            key={surface}
            href={`/docs?api=${surface}`}
            aria-current={surface === current ? "page" : undefined}
            className={`rounded px-3 py-1 text-sm ${surface === current ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
          >
            {title(surface).replace(/^Sesame /, "")}
          </Link>
        ))}
        {current ? (
          <a href={`/openapi/${current}.json`} className="ml-auto text-sm text-slate-600 underline">
            {current}.json
          </a>
        ) : null}
      </nav>
      {current ? (
        <RedocView specUrl={`/openapi/${current}.json`} />
      ) : (
        <DocsOverview
          references={surfaces.map((surface) => ({ href: `/docs?api=${surface}`, label: title(surface) }))}
        />
      )}
    </main>
  );
}
