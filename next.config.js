/** @type {import('next').NextConfig} */
const config = {
  // PGlite ships WASM and data files; keep it out of the server bundles.
  // oidc-provider (a Koa application, lib/openid) is loaded as it ships, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pino", "prom-client", "oidc-provider"],
  // The spec's status page is `GET {tenant_url}/admin/` with a trailing slash; do not redirect it away.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // No page uses next/image. Its optimizer (`/_next/image?url=…`) fetches the URL inside the server, past
  // the admin-port split (scripts/server.mjs): `?url=/metrics` on the public port would read the admin side.
  // Off, `/_next/image` is a 404 (and scripts/lib/listener-paths.mjs answers it on neither port).
  images: { unoptimized: true },
  experimental: {
    // Next.js loads every route's server modules when it starts (≈ 200 here: console, hosted pages,
    // every API). A route's modules are now loaded on its first request instead: a server under the
    // passkey API's load is ≈ 50–60 MB smaller, and the first request of each route pays its load once
    // (docs/memory.md).
    preloadEntriesOnStart: false,
  },
  reactStrictMode: true,
  async headers() {
    return [
      {
        // The hosted pages hold the account (and its deletion): never inside another site's frame. Their
        // Content-Security-Policy (frame-ancestors 'none' among it) carries a nonce per request: proxy.ts.
        source: "/t/:tenantId/hosted/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      {
        // The console: never framed (its confirmation dialogs are one click from a change), and its
        // URLs (enrolment pages, filters) are not sent to other sites.
        source: "/console/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
      {
        source: "/console",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
      {
        // The API reference loads nothing from outside Sesame (Redoc would fetch its logo from a CDN).
        source: "/docs",
        headers: [
          {
            key: "Content-Security-Policy",
            value: [
              "default-src 'self'",
              "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
              "style-src 'self' 'unsafe-inline'",
              "img-src 'self' data: blob:",
              "font-src 'self' data:",
              "worker-src 'self' blob:",
              "connect-src 'self'",
            ].join("; "),
          },
        ],
      },
    ];
  },
};

export default config;
