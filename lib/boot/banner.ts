import type { Config } from "@/lib/config";
import type { DemoTenant } from "./seed-demo-tenant";

function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `embedded PGlite in ${config.dataDir}/pglite`;
  const url = new URL(config.databaseUrl);
  return `Postgres at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}

/** The human-readable start-up message: where Sesame runs and, in development, the demo keys. */
export function banner(config: Config, demo: DemoTenant | undefined, created: boolean): string {
  const base = config.baseUrl;
  const lines = [
    "",
    `  Sesame is running at ${base}`,
    `  Database   ${describeDatabase(config)}`,
    `  API docs   ${base}/docs`,
    `  Health     ${base}/livez  ${base}/readyz`,
  ];
  if (demo) {
    lines.push(
      "",
      `  Demo tenant "${demo.name}" ${created ? "(created now)" : ""}`.trimEnd(),
      `    id                 ${demo.tenantId}`,
      `    RP ID / origins    ${demo.rpId} / ${demo.origins.join(", ")}`,
      `    status page        ${base}/t/${demo.tenantId}/admin/`,
      `    Passkey API        ${base}/passkey/${demo.tenantId}/  (demo: ${base}/examples/passkeys)`,
      `    Authenticator API  ${base}/v1/uaf/requests  (demo: ${base}/examples/uaf)`,
      `    admin key          ${demo.keys.admin}`,
      `    passkey key        ${demo.keys.passkey}`,
      `    authenticator key  ${demo.keys.authenticator}`,
      `    (kept in ${config.dataDir}/demo-keys.json; more keys: npm run sesame -- key create --help)`,
    );
  }
  lines.push("");
  return lines.join("\n");
}
