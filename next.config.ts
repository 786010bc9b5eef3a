import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships WASM and data files; keep it out of the server bundles.
  serverExternalPackages: ["@electric-sql/pglite", "pino"],
  // The spec's status page is `GET {tenant_url}/admin/` with a trailing slash; do not redirect it away.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  reactStrictMode: true,
};

export default config;
