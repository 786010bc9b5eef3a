import fs from "node:fs";
import { recordAuditEvent } from "@/lib/audit";
import { listTenants, provisionTenant, updateTenant, type Tenant } from "@/lib/tenants";
import { printJson, printTable, UsageError } from "../output";
import type { Command } from "./command";

const SETTINGS_OPTIONS = {
  name: { type: "string" },
  "rp-id": { type: "string" },
  "rp-name": { type: "string" },
  origin: { type: "string", multiple: true },
  "challenge-ttl": { type: "string" },
  "request-ttl": { type: "string" },
  "session-lifetime": { type: "string" },
  "passcode-ttl": { type: "string" },
  "token-lifetime": { type: "string" },
  "signing-algorithm": { type: "string" },
  "user-verification": { type: "string" },
  attestation: { type: "string" },
  "resident-key": { type: "string" },
  attachment: { type: "string" },
  "mfa-user-verification": { type: "string" },
  "mfa-attestation": { type: "string" },
  "mfa-resident-key": { type: "string" },
  "mfa-attachment": { type: "string" },
  "uaf-app-id": { type: "string" },
  "uaf-facet": { type: "string", multiple: true },
  "uaf-trusted-root": { type: "string", multiple: true },
  "uaf-allow-surrogate": { type: "string" },
  "uaf-aaid": { type: "string", multiple: true },
  "uaf-test-authenticators": { type: "string" },
  "api-version": { type: "string" },
  "session-limit": { type: "string" },
  "session-idle-timeout": { type: "string" },
  "session-cross-domain": { type: "string" },
  "cookie-name": { type: "string" },
  "cookie-secure": { type: "string" },
  "cookie-same-site": { type: "string" },
  "cookie-domain": { type: "string" },
  "cookie-retention": { type: "string" },
  "password-enabled": { type: "string" },
  "password-min-length": { type: "string" },
  "emails-require-verification": { type: "string" },
  "emails-max": { type: "string" },
  "allow-signup": { type: "string" },
  "allow-deletion": { type: "string" },
  "passkeys-enabled": { type: "string" },
  "passkeys-optional": { type: "string" },
  "passcodes-enabled": { type: "string" },
  "username-enabled": { type: "string" },
  "username-required": { type: "string" },
  "username-min-length": { type: "string" },
  "username-max-length": { type: "string" },
  "mfa-enabled": { type: "string" },
  "mfa-totp": { type: "string" },
  "mfa-security-keys": { type: "string" },
  "rate-limit": { type: "string", multiple: true },
  "brand-name": { type: "string" },
  "brand-color": { type: "string" },
  "brand-background": { type: "string" },
  "brand-text-color": { type: "string" },
  "logo-url": { type: "string" },
} as const;

/** Only the fields given; undefined when none is (the tenant's current values stay). */
function section(fields: Record<string, unknown>) {
  const set = Object.entries(fields).filter(([, value]) => value !== undefined);
  return set.length > 0 ? Object.fromEntries(set) : undefined;
}

/** `--attachment any` clears the attachment (any authenticator). */
const attachment = (value: unknown) => (value === "any" ? null : text(value));

function policyFrom(values: Record<string, unknown>, prefix: "" | "mfa-") {
  return section({
    userVerification: text(values[`${prefix}user-verification`]),
    attestation: text(values[`${prefix}attestation`]),
    residentKey: text(values[`${prefix}resident-key`]),
    attachment: attachment(values[`${prefix}attachment`]),
  });
}

/** A repeatable option; `none` alone clears the list. */
const list = (value: unknown) =>
  Array.isArray(value) ? (value.length === 1 && value[0] === "none" ? [] : value) : undefined;

/** `true`/`false`; anything else goes to the domain, which names the field in its error. */
const boolean = (value: unknown) => (value === "true" ? true : value === "false" ? false : value);

/** The certificates of each PEM file (a file may hold several). */
function trustedRoots(value: unknown): string[] | undefined {
  const files = list(value);
  return files?.flatMap((file: string) => {
    let pem: string;
    try {
      pem = fs.readFileSync(file, "utf8");
    } catch (error) {
      throw new Error(`--uaf-trusted-root ${file}: ${(error as Error).message}`);
    }
    const certificates = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
    if (!certificates) throw new Error(`--uaf-trusted-root ${file}: no PEM certificate in the file`);
    return certificates.map((certificate) => `${certificate}\n`);
  });
}

/** UAF settings merge field by field into the tenant's, like the WebAuthn policies; lists replace. */
function uafFrom(values: Record<string, unknown>) {
  return section({
    appId: text(values["uaf-app-id"]),
    facetIds: list(values["uaf-facet"]),
    trustedRoots: trustedRoots(values["uaf-trusted-root"]),
    allowSurrogate: boolean(values["uaf-allow-surrogate"]),
    acceptedAaids: list(values["uaf-aaid"]),
    allowTestAuthenticators: boolean(values["uaf-test-authenticators"]),
  });
}

/** `--rate-limit <group>=<points>/<seconds>`, repeatable; each merges into the tenant's limits by group. */
function rateLimits(value: unknown) {
  if (!Array.isArray(value)) return undefined;
  return Object.fromEntries(
    value.map((entry: string) => {
      const match = /^([^=]+)=(\d+)\/(\d+)$/.exec(entry);
      if (!match)
        throw new UsageError(
          `--rate-limit ${entry}: expected <group>=<points>/<seconds>, e.g. passcode=10/60`,
        );
      return [match[1]!, { points: Number(match[2]), durationSeconds: Number(match[3]) }];
    }),
  );
}

/** Public API (platform) settings: each section merges field by field into the tenant's. */
function platformFrom(values: Record<string, unknown>) {
  const cookieDomain = text(values["cookie-domain"]);
  return section({
    apiVersion: number(values["api-version"]),
    session: section({
      limit: number(values["session-limit"]),
      idleTimeoutSeconds: number(values["session-idle-timeout"]),
      crossDomain: boolean(values["session-cross-domain"]),
      cookie: section({
        name: text(values["cookie-name"]),
        secure: boolean(values["cookie-secure"]),
        sameSite: text(values["cookie-same-site"]),
        // `none`: host-only (no Domain attribute).
        domain: cookieDomain === "none" ? null : cookieDomain,
        retention: text(values["cookie-retention"]),
      }),
    }),
    password: section({
      enabled: boolean(values["password-enabled"]),
      minLength: number(values["password-min-length"]),
    }),
    emails: section({
      requireVerification: boolean(values["emails-require-verification"]),
      maxPerUser: number(values["emails-max"]),
    }),
    account: section({
      allowSignup: boolean(values["allow-signup"]),
      allowDeletion: boolean(values["allow-deletion"]),
    }),
    passkeys: section({
      enabled: boolean(values["passkeys-enabled"]),
      optional: boolean(values["passkeys-optional"]),
    }),
    passcodes: section({ enabled: boolean(values["passcodes-enabled"]) }),
    username: section({
      enabled: boolean(values["username-enabled"]),
      required: boolean(values["username-required"]),
      minLength: number(values["username-min-length"]),
      maxLength: number(values["username-max-length"]),
    }),
    mfa: section({
      enabled: boolean(values["mfa-enabled"]),
      totp: boolean(values["mfa-totp"]),
      securityKeys: boolean(values["mfa-security-keys"]),
    }),
    rateLimits: rateLimits(values["rate-limit"]),
  });
}

/** `none` clears an optional text setting (back to its default: null). */
const textOrNone = (value: unknown) => (value === "none" ? null : text(value));

/** Hosted page branding: merges field by field into the tenant's; colours are checked by the domain. */
function brandingFrom(values: Record<string, unknown>) {
  return section({
    displayName: textOrNone(values["brand-name"]),
    primaryColor: text(values["brand-color"]),
    backgroundColor: text(values["brand-background"]),
    textColor: text(values["brand-text-color"]),
    logoUrl: textOrNone(values["logo-url"]),
  });
}

const number = (value: unknown) => (typeof value === "string" ? Number(value) : undefined);
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** Maps CLI options onto tenant settings; validation happens in the domain (lib/tenants). */
function settingsFrom(values: Record<string, unknown>): Record<string, unknown> {
  const settings: Record<string, unknown> = {
    name: text(values.name),
    rpId: text(values["rp-id"]),
    rpName: text(values["rp-name"]),
    origins: Array.isArray(values.origin) ? values.origin : undefined,
    challengeTtlSeconds: number(values["challenge-ttl"]),
    requestTtlSeconds: number(values["request-ttl"]),
    sessionLifetimeSeconds: number(values["session-lifetime"]),
    passcodeTtlSeconds: number(values["passcode-ttl"]),
    tokenLifetimeSeconds: number(values["token-lifetime"]),
    signingAlgorithm: text(values["signing-algorithm"]),
    passkeyPolicy: policyFrom(values, ""),
    mfaPolicy: policyFrom(values, "mfa-"),
    uaf: uafFrom(values),
    platform: platformFrom(values),
    branding: brandingFrom(values),
  };
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

const summary = (tenant: Tenant) => ({ id: tenant.id, name: tenant.name });

export const tenantCreate: Command = {
  name: "tenant create",
  usage:
    "tenant create --name <name> [--rp-id <host>] [--rp-name <name>] [--origin <url>]... [--session-lifetime <s>] " +
    "[--passcode-ttl <s>] [--challenge-ttl <s>] [--request-ttl <s>] [--token-lifetime <s>] " +
    "[--signing-algorithm RS256|ES256|EdDSA] [--user-verification required|preferred|discouraged] " +
    "[--attestation none|indirect|direct|enterprise] [--resident-key required|preferred|discouraged] " +
    "[--attachment platform|cross-platform|any] [--mfa-user-verification …] [--mfa-attestation …] " +
    '[--mfa-resident-key …] [--mfa-attachment …] [--uaf-app-id <https url|"">] [--uaf-facet <facet id|none>]... ' +
    "[--uaf-trusted-root <file.pem|none>]... [--uaf-allow-surrogate true|false] [--uaf-aaid <VVVV#MMMM|none>]... " +
    "[--uaf-test-authenticators true|false] [--api-version 2|3] [--session-limit <n>] " +
    "[--session-idle-timeout <s, 0 = off>] [--session-cross-domain true|false] [--cookie-name <name>] " +
    "[--cookie-secure true|false] [--cookie-same-site strict|lax|none] [--cookie-domain <domain|none>] " +
    "[--cookie-retention persistent|session] [--password-enabled true|false] [--password-min-length <n>] " +
    "[--emails-require-verification true|false] [--emails-max <n>] [--allow-signup true|false] " +
    "[--allow-deletion true|false] [--passkeys-enabled true|false] [--passkeys-optional true|false] " +
    "[--passcodes-enabled true|false] [--username-enabled true|false] [--username-required true|false] " +
    "[--username-min-length <n>] [--username-max-length <n>] [--mfa-enabled true|false] [--mfa-totp true|false] " +
    "[--mfa-security-keys true|false] [--rate-limit <group>=<points>/<seconds>]... [--brand-name <name|none>] " +
    "[--brand-color <#rrggbb>] [--brand-background <#rrggbb>] [--brand-text-color <#rrggbb>] " +
    "[--logo-url <https url|none>] [--json]",
  description:
    "Create a tenant with a signing key and one API key per scope (admin, passkey, authenticator).",
  options: SETTINGS_OPTIONS,
  async run({ values, json }) {
    if (typeof values.name !== "string") throw new UsageError("--name is required");
    const { tenant, keys } = await provisionTenant({ ...settingsFrom(values), name: values.name }, "cli");
    if (json) return printJson({ tenant: summary(tenant), keys });
    process.stdout.write(
      `Created tenant ${tenant.name} (${tenant.id}), RP ID ${tenant.rpId}, ` +
        `origins ${tenant.origins.join(", ") || "(none)"}\n` +
        `API keys (shown once, store them now):\n` +
        `  admin          ${keys.admin}\n  passkey        ${keys.passkey}\n  authenticator  ${keys.authenticator}\n`,
    );
  },
};

export const tenantList: Command = {
  name: "tenant list",
  usage: "tenant list [--json]",
  description: "List all tenants.",
  options: {},
  async run({ json }) {
    const tenants = await listTenants();
    if (json) return printJson({ tenants });
    printTable(
      tenants.map((t) => ({
        id: t.id,
        name: t.name,
        rpId: t.rpId,
        origins: t.origins,
        created: t.createdAt,
      })),
    );
  },
};

export const tenantUpdate: Command = {
  name: "tenant update",
  usage: "tenant update <tenant-id> [the settings options of tenant create] [--json]",
  description:
    "Change settings of a tenant. Policies, UAF, public API and branding settings merge field by field; --origin and " +
    "each repeatable --uaf-… option replace their whole list (none empties it); each --rate-limit sets one " +
    "endpoint group (passcode, password, session_validate, …) and keeps the others.",
  options: SETTINGS_OPTIONS,
  async run({ values, positionals, json }) {
    const [tenantId] = positionals;
    if (!tenantId) throw new UsageError("the tenant id is required");
    const settings = settingsFrom(values);
    if (Object.keys(settings).length === 0)
      throw new UsageError("nothing to change: give at least one setting");
    const tenant = await updateTenant(tenantId, settings);
    await recordAuditEvent(tenant.id, {
      type: "tenant.updated",
      actor: "cli",
      details: { changed: Object.keys(settings) },
    });
    if (json) return printJson({ tenant });
    process.stdout.write(
      `Updated tenant ${tenant.name} (${tenant.id}): ${Object.keys(settings).join(", ")}\n`,
    );
  },
};
