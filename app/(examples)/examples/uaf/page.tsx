import Link from "next/link";
import { UafDemo } from "@/components/examples/uaf-demo";
import { readDemoTenant } from "@/lib/boot/seed-demo-tenant";

export const dynamic = "force-dynamic";
export const metadata = { title: "FIDO UAF demo · Sesame" };

// GET /examples/uaf: a relying-party demo of the Authenticator request API (out of band) on the demo tenant
export default async function UafDemoPage() {
  const tenant = await readDemoTenant();
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <h1 className="text-2xl font-semibold">FIDO UAF demo: the relying party</h1>
      <p className="mt-2 text-slate-600">
        A relying party using Sesame&apos;s Authenticator request API out of band: its server holds the API
        key and creates a registration, login, transaction or deregistration request; the user answers it on a
        phone by scanning the QR code, and this page polls the request&apos;s status until it is no longer
        PENDING. Play the phone with the{" "}
        <Link href="/examples/authenticator" target="_blank" className="font-medium text-blue-700 underline">
          demo authenticator
        </Link>{" "}
        in another tab.
      </p>
      <p className="mt-2 text-sm text-slate-500">
        The QR code holds the link that <code>GET /v1/uaf/requests/&#123;id&#125;/link</code> returns (a
        single-use token for this request, never the API key); the page shows it as text too, since a browser
        tab cannot scan its own screen.
      </p>
      {tenant ? (
        <UafDemo />
      ) : (
        <p role="alert" className="mt-8 rounded border border-amber-300 bg-amber-50 p-4">
          There is no demo tenant. Start Sesame on an empty database with <code>SESAME_SEED_DEMO</code> on.
        </p>
      )}
    </main>
  );
}
