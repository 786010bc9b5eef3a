import { firstHostUrl, isLocalUrl, type Config } from "@/lib/config";
import { metricsBannerLine, metricsClosedWarning } from "@/lib/metrics";
import { consoleUrl } from "@/lib/operators/console-tenant";
import { DEMO_KEYS_FILE, type DemoTenant } from "./seed-demo-tenant";

function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `embedded PGlite in ${config.dataDir}/pglite`;
  const url = new URL(firstHostUrl(config.databaseUrl));
  const hosts = /^[^:]+:\/\/(?:[^@/?#]*@)?([^/?#]*)/.exec(config.databaseUrl)?.[1] ?? "";
  const named = hosts.includes(",") ? hosts : `${url.hostname}:${url.port || 5432}`;
  return `Postgres at ${named}${url.pathname}`;
}

/** The human-readable start-up message: where Sesame runs and, in development, the demo keys. */
export function banner(
  config: Config,
  demo: DemoTenant | undefined,
  created: boolean,
  setup?: { url: string | undefined; expiresAt: Date },
): string {
  const base = config.baseUrl;
  const lines = [
    "",
    `  Sesame is running at ${base}`,
    `  Console    ${consoleUrl()}`,
    `  Database   ${describeDatabase(config)}`,
    `  API docs   ${base}/docs`,
    `  Health     ${base}/livez  ${base}/readyz`,
    `  Metrics    ${metricsBannerLine(config)}`,
  ];
  if (setup && !setup.url) {
    lines.push(
      "",
      `  No console operator exists yet; another instance printed the setup link (valid until ${setup.expiresAt.toISOString()}).`,
      "  Or make the owner with: npm run sesame -- operator create --role owner --email <address>",
    );
  } else if (setup) {
    lines.push(
      "",
      "  No console operator exists yet. Open this one-time link within 30 minutes to become the owner",
      `  (valid until ${setup.expiresAt.toISOString()}; a restart prints a new one):`,
      `    ${setup.url}`,
    );
  }
  if (demo) {
    const example = (path: string) => (config.examples !== "off" ? `  (demo: ${base}/examples/${path})` : "");
    lines.push(
      "",
      `  Demo tenant "${demo.name}" ${created ? "(created now)" : ""}`.trimEnd(),
      `    id                 ${demo.tenantId}`,
      `    RP ID / origins    ${demo.rpId} / ${demo.origins.join(", ")}`,
      `    status page        ${base}/t/${demo.tenantId}/admin/`,
      `    Passkey API        ${base}/passkey/${demo.tenantId}/${example("passkeys")}`,
      `    Authenticator API  ${base}/v1/uaf/requests${example("uaf")}`,
      // The admin key is shown once, when it is made; later starts only say where it is kept.
      created
        ? `    admin key          ${demo.keys.admin}  (shown once)`
        : `    admin key          in ${config.dataDir}/${DEMO_KEYS_FILE}`,
      `    passkey key        ${demo.keys.passkey}`,
      `    authenticator key  ${demo.keys.authenticator}`,
      `    (kept in ${config.dataDir}/${DEMO_KEYS_FILE}; more keys: npm run sesame -- key create --help)`,
    );
    if (config.examples === "off") lines.push("    example pages      off (SESAME_EXAMPLES)");
  }
  for (const warning of [outboxWarning(config), metricsClosedWarning(config)]) {
    if (warning) lines.push("", ...warning.split("\n").map((line) => `  ${line}`));
  }
  lines.push("");
  return lines.join("\n");
}

/**
 * Without SMTP_URL, login codes go to the dev outbox: the log and a database table, in clear. Fine on
 * a developer's machine; anywhere else a loud warning at every start.
 */
export function outboxWarning(config: Config): string | undefined {
  if (config.smtpUrl || isLocalUrl(config.baseUrl)) return undefined;
  return [
    "!!! WARNING: SMTP_URL is not set, and Sesame is not on localhost.",
    "!!! Login and verification codes are written to the log and the mail_outbox table in clear,",
    "!!! where anyone who reads them can log in as your users. Set SMTP_URL before real use.",
  ].join("\n");
}
