import Link from "next/link";

const EXAMPLES = [
  { name: "Passkeys demo", path: "/examples/passkeys", note: "a relying party on the Passkey API" },
  { name: "FIDO UAF demo", path: "/examples/uaf", note: "a relying party on the Authenticator request API" },
  {
    name: "Demo authenticator",
    path: "/examples/authenticator",
    note: "the phone app of the out-of-band flow, in the browser",
  },
];

const SURFACES = [
  { name: "Authenticator request API", path: "/v1/uaf/requests", note: "FIDO UAF, out of band" },
  { name: "Passkey API", path: "/passkey/{tenant_id}", note: "tenant-scoped WebAuthn" },
  { name: "Public and flow API", path: "/t/{tenant_id}", note: "sessions, users, flows" },
  { name: "Admin API and status", path: "/t/{tenant_id}/admin/", note: "API key with the admin scope" },
  { name: "Health", path: "/livez, /readyz", note: "probes" },
];

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold">Sesame</h1>
      <p className="mt-2 text-slate-600">Open-source, self-hostable passwordless authentication.</p>
      <ul className="mt-8 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
        {SURFACES.map((surface) => (
          <li key={surface.name} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
            <span className="font-medium">{surface.name}</span>
            <code className="text-sm text-slate-600">{surface.path}</code>
            <span className="w-full text-sm text-slate-500">{surface.note}</span>
          </li>
        ))}
      </ul>
      <h2 className="mt-8 text-lg font-medium">Examples</h2>
      <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
        {EXAMPLES.map((example) => (
          <li key={example.path} className="px-4 py-3">
            <Link href={example.path} className="font-medium text-blue-700 underline">
              {example.name}
            </Link>
            <span className="block text-sm text-slate-500">{example.note}</span>
          </li>
        ))}
      </ul>
      <p className="mt-8">
        <Link href="/docs" className="font-medium text-blue-700 underline">
          API reference
        </Link>
      </p>
    </main>
  );
}
