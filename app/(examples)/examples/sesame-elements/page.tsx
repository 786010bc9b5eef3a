import { readDemoTenant } from "@/lib/boot/seed-demo-tenant";
import { AppError } from "@/lib/errors";
import { getTenant } from "@/lib/tenants";
import { SesameElementsDemo } from "./sesame-elements-demo";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sesame elements demo · Sesame" };

type Search = Promise<Record<string, string | string[] | undefined>>;

async function selectedTenant(requested: string | undefined) {
  if (requested === undefined) {
    const demo = await readDemoTenant();
    return demo && { id: demo.tenantId, name: demo.name };
  }
  try {
    const tenant = await getTenant(requested);
    return { id: tenant.id, name: tenant.name };
  } catch (error) {
    if (error instanceof AppError && error.code === "EXAMPLES_DISABLED") return undefined;
    throw error;
  }
}

// GET /examples/sesame-elements[?tenant=<id>][&view=profile][&lang=de][&shadow=false]: <sesame-auth> and <sesame-profile>
export default async function SesameElementsPage({ searchParams }: { searchParams: Search }) {
  const search = await searchParams;
  const first = (name: string) => {
    const value = search[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const tenant = await selectedTenant(first("tenant"));
  const view = first("view") === "profile" ? "profile" : "auth";
  const lang = first("lang") === "de" ? "de" : "en";
  const shadow = first("shadow") !== "false";

  return (
    <main className="mx-auto max-w-3xl px-6 py-12" lang={lang}>
      <h1 className="text-2xl font-semibold">Sesame elements demo</h1>
      <p className="mt-2 text-slate-700">
        Sesame&apos;s own web components from <code>/elements/v1/sesame-elements.js</code>, registered with
        the tenant URL <code>/t/&#123;tenant_id&#125;</code>. Add <code>?lang=de</code> for German and{" "}
        <code>?shadow=false</code> to render without a shadow root.
      </p>
      {tenant ? (
        <SesameElementsDemo tenantId={tenant.id} view={view} lang={lang} shadow={shadow} />
      ) : (
        <p role="alert" className="mt-8 rounded border border-amber-300 bg-amber-50 p-4">
          There is no such tenant. Start Sesame with <code>SESAME_SEED_DEMO</code> on, or name a tenant with{" "}
          <code>?tenant=&lt;id&gt;</code>.
        </p>
      )}
    </main>
  );
}
