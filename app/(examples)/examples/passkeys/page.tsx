import { PasskeysDemo } from "@/components/examples/passkeys-demo";
import { readDemoTenant } from "@/lib/boot/seed-demo-tenant";

export const dynamic = "force-dynamic";
export const metadata = { title: "Passkeys demo · Sesame" };

// GET /examples/passkeys: a relying-party demo of the Passkey API on the demo tenant
export default async function PasskeysDemoPage() {
  const tenant = await readDemoTenant();
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <h1 className="text-2xl font-semibold">Passkeys demo</h1>
      <p className="mt-2 text-slate-600">
        A relying party using Sesame&apos;s Passkey API: its server holds the API key; the browser registers
        and logs in with passkeys.
      </p>
      {tenant ? (
        <PasskeysDemo tenantId={tenant.tenantId} />
      ) : (
        <p role="alert" className="mt-8 rounded border border-amber-300 bg-amber-50 p-4">
          There is no demo tenant. Start Sesame on an empty database with <code>SESAME_SEED_DEMO</code> on.
        </p>
      )}
    </main>
  );
}
