import Link from "next/link";
import type { ReactNode } from "react";

/** One quick start: what the surface is for, the few calls that make it work, and its reference. */
export interface Guide {
  id: string;
  title: string;
  summary: string;
  steps: ReactNode[];
  code: string;
  reference: { href: string; label: string }[];
}

const T = "https://auth.example.com/t/<tenant id>";

export const GUIDES: Guide[] = [
  {
    id: "elements",
    title: "Elements and hosted pages",
    summary:
      "The fastest way in: put <sesame-auth> (or Hanko's <hanko-auth>) on a page, or send users to the hosted login page. Passkeys, passcodes, passwords and SSO as the tenant allows.",
    steps: [
      "Create a tenant in the console; its origins must include your page's origin.",
      "Load the elements bundle from Sesame and register the tenant URL.",
      "Listen for sesame-auth-success, then validate the session on your server with the public API.",
      <>
        No page of your own? Link to <code>/t/&lt;tenant id&gt;/hosted/login?redirect_to=…</code>.
      </>,
    ],
    code: [
      `<script type="module">`,
      `  import { register } from "https://auth.example.com/elements/v1/sesame-elements.js";`,
      `  await register("${T}");`,
      `</script>`,
      `<sesame-auth lang="en"></sesame-auth>`,
    ].join("\n"),
    reference: [
      { href: "/docs?api=public", label: "Public API reference (sessions, /me)" },
      { href: "/examples/sesame-elements", label: "Elements demo" },
    ],
  },
  {
    id: "flow",
    title: "Flow API",
    summary:
      "Hanko's flow API, so Hanko's own web components and frontend SDK work unchanged; or drive the login, registration and profile state machines from your own UI.",
    steps: [
      "POST {tenant URL}/login (or /registration, /profile) starts a flow and answers its first state.",
      "Post an offered action's href with its input_data and the last csrf_token.",
      "Repeat until the state is success: the answer carries the session.",
    ],
    code: [
      `curl -X POST "${T}/login"`,
      `# → {"name":"login_init","actions":{"continue_with_login_identifier":{"href":"/login?action=…"}},"csrf_token":"…"}`,
    ].join("\n"),
    reference: [
      { href: "/docs?api=flow", label: "Flow API reference" },
      { href: "/examples/hanko-elements", label: "Hanko elements demo" },
    ],
  },
  {
    id: "passkey",
    title: "Passkey API",
    summary:
      "Add passkeys to an app that keeps its own users: your server starts each ceremony with the tenant's passkey API key, the browser finishes it, your server gets a signed token.",
    steps: [
      "Create an API key with the passkey scope (console → API & signing keys).",
      "Server: POST /passkey/{tenant}/registration/initialize with the user's id and name; hand publicKey to navigator.credentials.create().",
      "Browser: POST the result to /registration/finalize; the answer's token proves it. Logins work the same with /login/….",
    ],
    code: [
      `curl -X POST "https://auth.example.com/passkey/<tenant id>/registration/initialize" \\`,
      `  -H "apiKey: <passkey API key>" -H "Content-Type: application/json" \\`,
      `  -d '{"user_id":"u-1","username":"ada@example.com"}'`,
    ].join("\n"),
    reference: [
      { href: "/docs?api=passkey", label: "Passkey API reference" },
      { href: "/examples/passkeys", label: "Passkeys demo" },
    ],
  },
  {
    id: "openid",
    title: "OpenID Provider",
    summary:
      "Every tenant is an OpenID Connect issuer: Grafana, oauth2-proxy, Auth.js or any OIDC library signs users in through the hosted login.",
    steps: [
      "Register a client (console → OAuth clients, or RFC 7591 with the admin API key).",
      "Point your library at the issuer {tenant URL}; it discovers everything from /.well-known/openid-configuration.",
      "Use the code flow with PKCE; scopes openid, email, profile, offline_access.",
    ],
    code: [`ISSUER="${T}"`, `curl "$ISSUER/.well-known/openid-configuration"`].join("\n"),
    reference: [{ href: "/docs?api=admin", label: "Admin API reference (OAuth clients)" }],
  },
  {
    id: "uaf",
    title: "UAF (Authenticator API)",
    summary:
      "Out-of-band authentication with a phone app (FIDO UAF): your server creates a request, the user scans a QR code and confirms on the phone, your server polls the result.",
    steps: [
      "Create an API key with the authenticator scope.",
      "POST /v1/uaf/requests (REG, AUTH or DEREG); show GET /v1/uaf/requests/{id}/qrcode to the user.",
      "Poll GET /v1/uaf/requests/{id} until OK or FAILED.",
    ],
    code: [
      `curl -X POST "https://auth.example.com/v1/uaf/requests" \\`,
      `  -H "Authorization: secret <authenticator API key>" -H "Content-Type: application/json" \\`,
      `  -d '{"operation":"REG","userId":"user-1","username":"ada"}'`,
    ].join("\n"),
    reference: [
      { href: "/docs?api=authenticator", label: "Authenticator API reference" },
      { href: "/examples/uaf", label: "UAF demo" },
    ],
  },
];

const linkClass = "text-indigo-700 underline";

/** `/docs` without `?api=`: what Sesame offers and a quick start per surface, each linking to its reference. */
export function DocsOverview({ references }: { references: { href: string; label: string }[] }) {
  return (
    <div className="mx-auto max-w-4xl space-y-10 px-6 py-8 text-slate-800">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold text-slate-900">Sesame docs</h1>
        <p>
          Sesame signs your users in with passkeys first. Every tenant has its own URL{" "}
          <code>https://&lt;sesame host&gt;/t/&lt;tenant id&gt;</code>, keys and settings; create one in the{" "}
          <a href="/console" className={linkClass}>
            console
          </a>
          . Pick the way in that fits your app:
        </p>
        <nav aria-label="Quick starts">
          <ul className="flex flex-wrap gap-x-4 gap-y-1">
            {GUIDES.map((guide) => (
              <li key={guide.id}>
                <a href={`#${guide.id}`} className={linkClass}>
                  {guide.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {GUIDES.map((guide) => (
        <section key={guide.id} id={guide.id} aria-labelledby={`${guide.id}-title`} className="space-y-3">
          <h2 id={`${guide.id}-title`} className="text-xl font-semibold text-slate-900">
            Quick start: {guide.title}
          </h2>
          <p>{guide.summary}</p>
          <ol className="list-decimal space-y-1 pl-6">
            {guide.steps.map((step, index) => (
              <li key={index}>{step}</li>
            ))}
          </ol>
          <pre
            tabIndex={0}
            aria-label={`${guide.title}: example`}
            className="overflow-x-auto rounded bg-slate-100 p-3 text-xs"
          >
            <code>{guide.code}</code>
          </pre>
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {guide.reference.map((link) => (
              <li key={link.href}>
                <Link href={link.href} className={linkClass}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <section aria-labelledby="references-title" className="space-y-2">
        <h2 id="references-title" className="text-xl font-semibold text-slate-900">
          API references
        </h2>
        <ul className="list-disc space-y-1 pl-6">
          {references.map((link) => (
            <li key={link.href}>
              <Link href={link.href} className={linkClass}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
