import Link from "next/link";
import { connection } from "next/server";
import { consoleUrl } from "@/lib/operators";

const EXAMPLES = [
  { name: "Passkeys demo", path: "/examples/passkeys", note: "a relying party on the Passkey API" },
  {
    name: "Sesame elements demo",
    path: "/examples/sesame-elements",
    note: "Sesame's own login and profile web components on the flow API",
  },
  {
    name: "Hanko elements demo",
    path: "/examples/hanko-elements",
    note: "Hanko's own web components, unchanged, on Sesame's flow API",
  },
  { name: "FIDO UAF demo", path: "/examples/uaf", note: "a relying party on the Authenticator request API" },
  {
    name: "Demo authenticator",
    path: "/examples/authenticator",
    note: "the phone app of the out-of-band flow, in the browser",
  },
];

const SURFACES = [
  {
    name: "Authenticator request API",
    path: "/v1/uaf/requests",
    note: "FIDO UAF, out of band",
    doc: "authenticator",
  },
  { name: "Passkey API", path: "/passkey/{tenant_id}", note: "tenant-scoped WebAuthn", doc: "passkey" },
  { name: "Public and flow API", path: "/t/{tenant_id}", note: "sessions, users, flows", doc: "public" },
  {
    name: "Admin API and status",
    path: "/t/{tenant_id}/admin/",
    note: "API key with the admin scope",
    doc: "admin",
  },
  { name: "Health", path: "/livez, /readyz", note: "probes", doc: "health" },
];

const link =
  "font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:text-indigo-300 dark:hover:text-indigo-200";
const card = "rounded-lg bg-white p-5 shadow-xs ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700";
const muted = "text-sm text-slate-600 dark:text-slate-400";

/** The front door: where a newcomer goes next (the console, the docs, the demos), then the surfaces. */
export default async function Home() {
  // The console's address follows SESAME_BASE_URL and SESAME_ADMIN_PORT at run time, not at build.
  await connection();
  const steps = [
    {
      step: "1 · Manage",
      href: consoleUrl(),
      title: "Open the admin console",
      note: (
        <>
          Tenants, API keys, users, webhooks, audit log. First start? Use the setup link printed by{" "}
          <code>npm start</code>.
        </>
      ),
    },
    {
      step: "2 · Integrate",
      href: "/docs",
      title: "Read the guides and API reference",
      note: "A quick start per surface, then every endpoint, schema and error, generated from the code.",
    },
    {
      step: "3 · Try",
      href: "/examples/passkeys",
      title: "Try the passkeys demo",
      note: "Sign up and in with a passkey on the demo tenant, then explore more demos below.",
    },
  ];
  return (
    <div className="min-h-dvh bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <main className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        <h1 className="text-3xl font-semibold tracking-tight">Sesame</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">
          Open-source, self-hostable passwordless authentication: passkeys, one-time codes, FIDO UAF and
          hosted login pages for your apps.
        </p>

        <h2 className="mt-10 text-lg font-semibold">Get started</h2>
        <ol className="mt-3 grid gap-4 sm:grid-cols-3">
          {steps.map((step) => (
            <li key={step.step} className={card}>
              <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
                {step.step}
              </p>
              {/* A plain link: the console may be on another port (SESAME_ADMIN_PORT). */}
              <a href={step.href} className={`${link} mt-1 block`}>
                {step.title}
              </a>
              <p className={`mt-2 ${muted}`}>{step.note}</p>
            </li>
          ))}
        </ol>

        <h2 className="mt-10 text-lg font-semibold">Demos</h2>
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200 dark:divide-slate-800 dark:bg-slate-900 dark:ring-slate-700">
          {EXAMPLES.map((example) => (
            <li key={example.path} className="px-4 py-3">
              <Link href={example.path} className={link}>
                {example.name}
              </Link>
              <span className={`block ${muted}`}>{example.note}</span>
            </li>
          ))}
        </ul>

        <h2 className="mt-10 text-lg font-semibold">Surfaces</h2>
        <ul className="mt-3 divide-y divide-slate-200 rounded-lg bg-white ring-1 ring-slate-200 dark:divide-slate-800 dark:bg-slate-900 dark:ring-slate-700">
          {SURFACES.map((surface) => (
            <li
              key={surface.name}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-3"
            >
              <span className="font-medium">{surface.name}</span>
              <code className="text-sm break-all text-slate-600 dark:text-slate-400">{surface.path}</code>
              <span className={`w-full ${muted}`}>
                {surface.note} ·{" "}
                <Link href={`/docs?api=${surface.doc}`} className={link}>
                  reference<span className="sr-only"> for the {surface.name}</span>
                </Link>
              </span>
            </li>
          ))}
        </ul>

        <p className={`mt-10 ${muted}`}>
          Full API reference:{" "}
          <Link href="/docs" className={link}>
            /docs
          </Link>{" "}
          · OpenAPI documents under <code>/openapi/&#123;surface&#125;.json</code>
        </p>
      </main>
    </div>
  );
}
