import Link from "next/link";
import { readDemoTenant } from "@/lib/boot/seed-demo-tenant";

export const dynamic = "force-dynamic";
export const metadata = { title: "Examples · Sesame" };

interface Demo {
  href: string;
  title: string;
  shows: string;
  /** The API reference of the surface the demo drives (/docs?api=…). */
  api: string;
  apiName: string;
}

/** The example pages, in the order a newcomer would try them (issue 29, bug 4: /examples was a 404). */
const DEMOS: Demo[] = [
  {
    href: "/examples/sesame-elements",
    title: "Sesame elements",
    shows:
      "The <sesame-auth> and <sesame-profile> web components on a page of your own: sign up, sign in with a passkey, a code or a password, and manage passkeys and addresses.",
    api: "flow",
    apiName: "flow API",
  },
  {
    href: "/examples/hanko-elements",
    title: "Hanko Elements",
    shows:
      "Unmodified @teamhanko/hanko-elements (<hanko-auth>, <hanko-profile>) talking to Sesame: the drop-in replacement for Hanko Cloud.",
    api: "flow",
    apiName: "flow API",
  },
  {
    href: "/examples/passkeys",
    title: "Passkeys",
    shows:
      "A relying party adding passkeys to an existing login with the Passkey API: register, log in, sign a transaction, rename and delete passkeys.",
    api: "passkey",
    apiName: "Passkey API",
  },
  {
    href: "/examples/uaf",
    title: "FIDO UAF: the relying party",
    shows:
      "A website that registers and authenticates a phone app over FIDO UAF: it shows a QR code and waits for the authenticator.",
    api: "authenticator",
    apiName: "Authenticator API",
  },
  {
    href: "/examples/authenticator",
    title: "FIDO UAF: the authenticator app",
    shows:
      "A software authenticator in the browser that scans (pastes) the QR code of the UAF demo and answers it, as a phone app would.",
    api: "authenticator",
    apiName: "Authenticator API",
  },
];

// GET /examples: what each demo shows, with links to it and to the API it uses.
export default async function ExamplesIndex() {
  const tenant = await readDemoTenant();
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <h1 className="text-2xl font-semibold">Examples</h1>
      <p className="mt-2 text-slate-700">
        Demo pages that use Sesame the way your application would, on the demo tenant
        {tenant ? (
          <>
            {" "}
            (<code>{tenant.tenantId}</code>)
          </>
        ) : null}
        . Each runs in this browser; passkeys are created by your browser or a virtual authenticator.
      </p>
      <ul className="mt-8 space-y-4">
        {DEMOS.map((demo) => (
          <li key={demo.href} className="rounded-lg border border-slate-200 p-4">
            <h2 className="text-lg font-semibold">
              <Link href={demo.href} className="text-indigo-700 underline">
                {demo.title}
              </Link>
            </h2>
            <p className="mt-1 text-slate-700">{demo.shows}</p>
            <p className="mt-2 text-sm">
              <Link href={`/docs?api=${demo.api}`} className="text-slate-700 underline">
                {demo.apiName} reference
              </Link>
            </p>
          </li>
        ))}
      </ul>
      <p className="mt-8 text-sm text-slate-700">
        All APIs:{" "}
        <Link href="/docs" className="underline">
          API reference
        </Link>
        . The operators&apos; console is at{" "}
        <Link href="/console" className="underline">
          /console
        </Link>
        .
      </p>
    </main>
  );
}
