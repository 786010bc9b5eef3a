import Link from "next/link";
import { AuthenticatorDemo } from "@/components/examples/authenticator-demo";
import { demoFacetId } from "./facet";

export const dynamic = "force-dynamic";
export const metadata = { title: "Demo authenticator · Sesame" };

// GET /examples/authenticator: the authenticator app of the out-of-band flow, played in the browser
export default async function AuthenticatorDemoPage() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <h1 className="text-2xl font-semibold">FIDO UAF demo: the authenticator app</h1>
      <p className="mt-2 text-slate-600">
        This page plays the phone app of the out-of-band flow. Paste the link from the QR code of the{" "}
        <Link href="/examples/uaf" className="font-medium text-blue-700 underline">
          relying-party demo
        </Link>
        , see what the request asks, and approve or decline it. Approving registers a new key, signs a login
        or a transaction, or forgets the keys of a deregistration; declining sends nothing.
      </p>
      <p className="mt-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm">
        This demo keeps its keys in your browser&apos;s storage and signs on the server (Sesame&apos;s
        software authenticator needs Node&apos;s crypto); a real app keeps them in secure hardware and never
        lets them out. It talks to Sesame only through the link&apos;s single-use token, never with an API
        key.
      </p>
      <AuthenticatorDemo facetId={await demoFacetId()} />
    </main>
  );
}
