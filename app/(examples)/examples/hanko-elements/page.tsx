import { readDemoTenant } from "@/lib/boot/seed-demo-tenant";
import { AppError } from "@/lib/errors";
import { getTenant } from "@/lib/tenants";
import { HankoElementsDemo } from "./hanko-elements-demo";

export const dynamic = "force-dynamic";
export const metadata = { title: "Hanko Elements demo · Sesame" };

type Search = Promise<{ tenant?: string | string[]; view?: string | string[] }>;

/** The tenant named by `?tenant=`, else the demo tenant; undefined when there is none. */
async function selectedTenant(requested: string | undefined) {
  if (requested === undefined) {
    const demo = await readDemoTenant();
    return demo && { id: demo.tenantId, name: demo.name, origins: demo.origins };
  }
  try {
    const tenant = await getTenant(requested);
    return { id: tenant.id, name: tenant.name, origins: tenant.origins };
  } catch (error) {
    if (error instanceof AppError && error.code === "EXAMPLES_DISABLED") return undefined;
    throw error;
  }
}

// GET /examples/hanko-elements[?tenant=<id>][&view=profile]: Hanko's own <hanko-auth> and <hanko-profile> on the flow API
export default async function HankoElementsPage({ searchParams }: { searchParams: Search }) {
  const search = await searchParams;
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const requested = first(search.tenant);
  const view = first(search.view) === "profile" ? "profile" : "auth";
  const tenant = await selectedTenant(requested);

  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <h1 className="text-2xl font-semibold">Hanko Elements demo</h1>
      <p className="mt-2 text-slate-600">
        This page embeds Hanko&apos;s own, unmodified web components: the{" "}
        <code>@teamhanko/hanko-elements</code> 2.7.0 bundle exactly as npm ships it, with its <code>api</code>{" "}
        set to the tenant&apos;s URL <code>/t/&#123;tenant_id&#125;</code>. Every request it makes (login,
        registration and profile flows, session checks, logout) goes to Sesame&apos;s flow and public APIs.
      </p>
      {tenant ? (
        <>
          <p className="mt-2 text-sm text-slate-500">
            Tenant {tenant.name} (<code>{tenant.id}</code>)
          </p>
          <HankoElementsDemo tenantId={tenant.id} origins={tenant.origins} view={view} />
        </>
      ) : (
        <p role="alert" className="mt-8 rounded border border-amber-300 bg-amber-50 p-4">
          {requested === undefined ? (
            <>
              There is no demo tenant. Start Sesame on an empty database with <code>SESAME_SEED_DEMO</code>{" "}
              on, or name a tenant with <code>?tenant=&lt;id&gt;</code>.
            </>
          ) : (
            <>There is no tenant {requested}.</>
          )}
        </p>
      )}
    </main>
  );
}
