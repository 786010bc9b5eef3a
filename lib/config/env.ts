import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

/**
 * Sesame's configuration: read once from the environment at start-up and validated with zod.
 * A wrong value stops start-up with a message naming the variable and what it accepts.
 */
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** `address@host` or `Display Name <address@host>`, on one line. */
const MAIL_FROM = /^(?:[^<>@\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/;

const EnvSchema = z.object({
  PORT: z.coerce
    .number({ error: "must be a whole number from 1 to 65535" })
    .int("must be a whole number from 1 to 65535")
    .min(1, "must be a whole number from 1 to 65535")
    .max(65535, "must be a whole number from 1 to 65535")
    .default(3000),
  SESAME_BASE_URL: z
    .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL such as http://localhost:3000" })
    .optional(),
  DATABASE_URL: z
    .string()
    .refine(
      (value) =>
        URL.canParse(firstHostUrl(value)) && /^postgres(ql)?:$/.test(new URL(firstHostUrl(value)).protocol),
      { error: "must be a postgres:// or postgresql:// URL" },
    )
    .optional(),
  SESAME_DATA_DIR: z.string().min(1, "must be a folder path").default("./.data"),
  SESAME_MASTER_SECRET: z.string().min(32, "must be at least 32 characters long").optional(),
  SESAME_TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const entries = (value ?? "")
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean);
      for (const entry of entries) {
        if (!parseCidr(entry)) {
          ctx.addIssue({
            code: "custom",
            message: `"${entry}" is not an IP address or CIDR (10.0.0.0/8, ::1)`,
          });
        }
      }
      return entries;
    }),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  SESAME_SEED_DEMO: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .default("true")
    .transform((value) => value === "true" || value === "1"),
  SESAME_EXAMPLES: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "true" || value === "1")),
  SMTP_URL: z
    .url({
      protocol: /^smtps?$/,
      error: "must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587",
    })
    .optional(),
  SMTP_FROM: z
    .string()
    .trim()
    .max(320, "must be at most 320 characters")
    .regex(MAIL_FROM, 'must be an address, optionally with a name: "Sesame <no-reply@example.com>"')
    .default("Sesame <no-reply@localhost>"),
  SESAME_METRICS_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters long")
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces (it travels as a Bearer token)")
    .optional(),
  SESAME_ADMIN_PORT: z.coerce
    .number({ error: "must be a whole number from 1 to 65535, other than PORT" })
    .int("must be a whole number from 1 to 65535, other than PORT")
    .min(1, "must be a whole number from 1 to 65535, other than PORT")
    .max(65535, "must be a whole number from 1 to 65535, other than PORT")
    .optional(),
  SESAME_WEBHOOKS_ALLOW_PRIVATE: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .default("false")
    .transform((value) => value === "true" || value === "1"),
  SESAME_WEBHOOKS_WORKER: z
    .enum(["true", "false", "1", "0"], { error: "must be true or false" })
    .default("true")
    .transform((value) => value === "true" || value === "1"),
});

/** Rules across variables: the admin port is a second port, never PORT itself. */
const CheckedEnvSchema = EnvSchema.refine(
  (env) => env.SESAME_ADMIN_PORT === undefined || env.SESAME_ADMIN_PORT !== env.PORT,
  { path: ["SESAME_ADMIN_PORT"], message: "must be a whole number from 1 to 65535, other than PORT" },
);

/** `10.0.0.0/8`, `fd00::/8` or a single address; undefined when it is neither. */
/**
 * A Postgres URL may name several hosts (`postgres://user@db1:5432,db2:5432/sesame`, tried in turn to
 * follow a failover: docs/operations.md); WHATWG URLs do not. The same URL with its first host only.
 */
export function firstHostUrl(url: string): string {
  return url.replace(
    /^([a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?)([^/?#]*)/i,
    (_, head: string, hosts: string) => {
      return head + hosts.split(",")[0];
    },
  );
}

export function parseCidr(
  entry: string,
): { address: string; prefix: number; family: "ipv4" | "ipv6" } | undefined {
  const [address = "", bits] = entry.split("/");
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : Number(bits);
  if (
    !Number.isInteger(prefix) ||
    prefix < 0 ||
    prefix > max ||
    (bits !== undefined && !/^\d+$/.test(bits))
  ) {
    return undefined;
  }
  return { address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

/** 127.0.0.0/8 or ::1 (IPv4-mapped too): an address of this machine. */
export function isLoopbackAddress(ip: string): boolean {
  const address = ip.replace(/^::ffff:/i, "").replace(/^\[(.*)\]$/, "$1");
  return address === "::1" || /^127\.\d+\.\d+\.\d+$/.test(address);
}

/** Whether a URL's host is this machine (localhost, 127.0.0.0/8 or ::1): a development setup. */
export function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host.endsWith(".localhost") || isLoopbackAddress(host);
}

/** `SESAME_EXAMPLES` as set, else `local` on a localhost public URL and `off` anywhere else. */
function examplesMode(setting: boolean | undefined, baseUrl: string): Config["examples"] {
  if (setting !== undefined) return setting ? "on" : "off";
  return isLocalUrl(baseUrl) ? "local" : "off";
}

export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  /** Public origin of this Sesame instance, without a trailing slash. */
  baseUrl: string;
  /** Postgres connection string; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl: string | undefined;
  /** Absolute path of the data folder (PGlite files, generated master secret). */
  dataDir: string;
  masterSecret: string | undefined;
  /**
   * Reverse proxies (IP addresses or CIDRs) whose `X-Forwarded-For` entries are believed: the client IP
   * is the rightmost entry that is not one of them.
   */
  trustedProxies: string[];
  logLevel: LogLevel;
  /** Seed a demo tenant on the first start against an empty database. */
  seedDemo: boolean;
  /**
   * Serve the example pages under /examples (they act with the demo tenant's keys, without sign-in):
   * `on`, `off`, or `local` (only to clients on this machine: the socket address is loopback).
   * `SESAME_EXAMPLES=true|false`; unset: `local` when the public URL is localhost, else `off`.
   */
  examples: "on" | "off" | "local";
  /** SMTP server for passcode mails (`smtp://` or `smtps://`); unset: mails go to the dev outbox. */
  smtpUrl: string | undefined;
  /** Sender of Sesame's mails: `address` or `Name <address>`. */
  smtpFrom: string;
  /**
   * `SESAME_METRICS_TOKEN`: `GET /metrics` wants `Authorization: Bearer <token>` (else 401); unset, it is
   * open on the admin port or a localhost base URL and closed (401) anywhere else (lib/metrics
   * scrapeAccess). docs/metrics.md.
   */
  metricsToken: string | undefined;
  /**
   * `SESAME_ADMIN_PORT`: a second port, in the same process, for the admin API, `/metrics` and the
   * console, which then answer 404 on `port` (scripts/server.mjs splits them). Unset: one port.
   */
  adminPort: number | undefined;
  /**
   * Webhook callbacks may be `http://localhost` and resolve to loopback or private addresses
   * (`SESAME_WEBHOOKS_ALLOW_PRIVATE=true`: development and tests). Link-local and metadata stay refused.
   */
  webhooksAllowPrivate: boolean;
  /** Run the webhook delivery worker in this process (`SESAME_WEBHOOKS_WORKER`, default true). */
  webhooksWorker: boolean;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses an environment (by default `process.env`); throws ConfigError listing every wrong variable. */
export function parseConfig(env: Record<string, string | undefined> = process.env): Config {
  const blankToUndefined = Object.fromEntries(
    Object.keys(EnvSchema.shape).map((key) => [key, env[key] === "" ? undefined : env[key]]),
  );
  const result = CheckedEnvSchema.safeParse(blankToUndefined);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const variable = String(issue.path[0] ?? "environment");
      return `  ${variable}=${JSON.stringify(env[variable] ?? "")}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = result.data;
  const baseUrl = (e.SESAME_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    port: e.PORT,
    baseUrl,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.SESAME_DATA_DIR),
    masterSecret: e.SESAME_MASTER_SECRET,
    trustedProxies: e.SESAME_TRUSTED_PROXIES,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SESAME_SEED_DEMO,
    examples: examplesMode(e.SESAME_EXAMPLES, baseUrl),
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    metricsToken: e.SESAME_METRICS_TOKEN,
    adminPort: e.SESAME_ADMIN_PORT,
    webhooksAllowPrivate: e.SESAME_WEBHOOKS_ALLOW_PRIVATE,
    webhooksWorker: e.SESAME_WEBHOOKS_WORKER,
  };
}

let cached: Config | undefined;

/** The process configuration, parsed on first use and then kept. */
export function getConfig(): Config {
  cached ??= parseConfig();
  return cached;
}
