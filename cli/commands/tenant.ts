import fs from "node:fs";
import { recordAuditEvent } from "@/lib/audit";
import { listTenants, updateTenant, type Tenant } from "@/lib/tenants";
import { provisionTenant } from "@/lib/accounts";
import { printJson, printTable, UsageError } from "../output";
import type { Command } from "./command";

const number = (value: unknown) => (typeof value === "string" ? Number(value) : undefined);
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** `none` (`any` for an attachment) clears an optional setting (back to null: unset). */
const textOr = (clear: string) => (value: unknown) => (value === clear ? null : text(value));

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

interface SettingFlag {
  /** Where the value goes in the tenant settings (lib/tenants/schemas.ts), dot-separated. */
  path: string;
  /** The option's text to the setting's value; validation happens in the domain (lib/tenants). */
  read: (value: unknown) => unknown;
  /** What the value looks like, for the usage line. */
  hint: string;
  multiple?: true;
}

const BOOLEAN = "true|false";
/** The options of one WebAuthn policy section, `--mfa-` prefixed for the MFA policy. */
const WEBAUTHN_FLAGS = {
  "user-verification": { field: "userVerification", read: text, hint: "required|preferred|discouraged" },
  attestation: { field: "attestation", read: text, hint: "none|indirect|direct|enterprise" },
  "resident-key": { field: "residentKey", read: text, hint: "required|preferred|discouraged" },
  attachment: { field: "attachment", read: textOr("any"), hint: "platform|cross-platform|any" },
};

function webauthnFlags(prefix: "" | "mfa-", section: "passkeyPolicy" | "mfaPolicy") {
  return Object.fromEntries(
    Object.entries(WEBAUTHN_FLAGS).map(([name, { field, ...flag }]) => [
      `${prefix}${name}`,
      { ...flag, path: `${section}.${field}` },
    ]),
  );
}

/**
 * Every settings option of `tenant create` and `tenant update`: a new setting needs its schema in
 * lib/tenants/schemas.ts and one line here. Sections merge field by field into the tenant's; lists replace.
 */
const SETTING_FLAGS: Record<string, SettingFlag> = {
  name: { path: "name", read: text, hint: "<name>" },
  "rp-id": { path: "rpId", read: text, hint: "<host>" },
  "rp-name": { path: "rpName", read: text, hint: "<name>" },
  origin: {
    path: "origins",
    read: (value) => (Array.isArray(value) ? value : undefined),
    hint: "<url>",
    multiple: true,
  },
  "challenge-ttl": { path: "challengeTtlSeconds", read: number, hint: "<s>" },
  "request-ttl": { path: "requestTtlSeconds", read: number, hint: "<s>" },
  "session-lifetime": { path: "sessionLifetimeSeconds", read: number, hint: "<s>" },
  "passcode-ttl": { path: "passcodeTtlSeconds", read: number, hint: "<s>" },
  "token-lifetime": { path: "tokenLifetimeSeconds", read: number, hint: "<s>" },
  "signing-algorithm": { path: "signingAlgorithm", read: text, hint: "RS256|ES256|EdDSA" },
  ...webauthnFlags("", "passkeyPolicy"),
  ...webauthnFlags("mfa-", "mfaPolicy"),
  "uaf-app-id": { path: "uaf.appId", read: text, hint: '<https url|"">' },
  "uaf-facet": { path: "uaf.facetIds", read: list, hint: "<facet id|none>", multiple: true },
  "uaf-trusted-root": {
    path: "uaf.trustedRoots",
    read: trustedRoots,
    hint: "<file.pem|none>",
    multiple: true,
  },
  "uaf-allow-surrogate": { path: "uaf.allowSurrogate", read: boolean, hint: BOOLEAN },
  "uaf-aaid": { path: "uaf.acceptedAaids", read: list, hint: "<VVVV#MMMM|none>", multiple: true },
  "uaf-test-authenticators": { path: "uaf.allowTestAuthenticators", read: boolean, hint: BOOLEAN },
  "api-version": { path: "platform.apiVersion", read: number, hint: "2|3" },
  "session-limit": { path: "platform.session.limit", read: number, hint: "<n>" },
  "session-idle-timeout": { path: "platform.session.idleTimeoutSeconds", read: number, hint: "<s, 0 = off>" },
  "session-cross-domain": { path: "platform.session.crossDomain", read: boolean, hint: BOOLEAN },
  "cookie-name": { path: "platform.session.cookie.name", read: text, hint: "<name>" },
  "cookie-secure": { path: "platform.session.cookie.secure", read: boolean, hint: BOOLEAN },
  "cookie-same-site": { path: "platform.session.cookie.sameSite", read: text, hint: "strict|lax|none" },
  // `none`: host-only (no Domain attribute).
  "cookie-domain": { path: "platform.session.cookie.domain", read: textOr("none"), hint: "<domain|none>" },
  "cookie-retention": { path: "platform.session.cookie.retention", read: text, hint: "persistent|session" },
  "password-enabled": { path: "platform.password.enabled", read: boolean, hint: BOOLEAN },
  "password-min-length": { path: "platform.password.minLength", read: number, hint: "<n>" },
  "emails-require-verification": {
    path: "platform.emails.requireVerification",
    read: boolean,
    hint: BOOLEAN,
  },
  "emails-max": { path: "platform.emails.maxPerUser", read: number, hint: "<n>" },
  "allow-signup": { path: "platform.account.allowSignup", read: boolean, hint: BOOLEAN },
  "allow-deletion": { path: "platform.account.allowDeletion", read: boolean, hint: BOOLEAN },
  "passkeys-enabled": { path: "platform.passkeys.enabled", read: boolean, hint: BOOLEAN },
  "passkeys-optional": { path: "platform.passkeys.optional", read: boolean, hint: BOOLEAN },
  "passcodes-enabled": { path: "platform.passcodes.enabled", read: boolean, hint: BOOLEAN },
  "username-enabled": { path: "platform.username.enabled", read: boolean, hint: BOOLEAN },
  "username-required": { path: "platform.username.required", read: boolean, hint: BOOLEAN },
  "username-min-length": { path: "platform.username.minLength", read: number, hint: "<n>" },
  "username-max-length": { path: "platform.username.maxLength", read: number, hint: "<n>" },
  "mfa-enabled": { path: "platform.mfa.enabled", read: boolean, hint: BOOLEAN },
  "mfa-totp": { path: "platform.mfa.totp", read: boolean, hint: BOOLEAN },
  "mfa-security-keys": { path: "platform.mfa.securityKeys", read: boolean, hint: BOOLEAN },
  "rate-limit": {
    path: "platform.rateLimits",
    read: rateLimits,
    hint: "<group>=<points>/<seconds>",
    multiple: true,
  },
  "brand-name": { path: "branding.displayName", read: textOr("none"), hint: "<name|none>" },
  "brand-color": { path: "branding.primaryColor", read: text, hint: "<#rrggbb>" },
  "brand-background": { path: "branding.backgroundColor", read: text, hint: "<#rrggbb>" },
  "brand-text-color": { path: "branding.textColor", read: text, hint: "<#rrggbb>" },
  "logo-url": { path: "branding.logoUrl", read: textOr("none"), hint: "<https url|none>" },
  "audit-retention-days": { path: "auditLog.retentionDays", read: number, hint: "<days, 1..3650>" },
};

const SETTINGS_OPTIONS = Object.fromEntries(
  Object.entries(SETTING_FLAGS).map(([name, flag]) => [
    name,
    flag.multiple ? { type: "string" as const, multiple: true } : { type: "string" as const },
  ]),
);

const SETTINGS_USAGE = Object.entries(SETTING_FLAGS)
  .filter(([name]) => name !== "name")
  .map(([name, flag]) => `[--${name} ${flag.hint}]${flag.multiple ? "..." : ""}`)
  .join(" ");

/** Maps CLI options onto tenant settings: only the options given, each at its place in the sections. */
function settingsFrom(values: Record<string, unknown>): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(SETTING_FLAGS)) {
    const value = flag.read(values[name]);
    if (value === undefined) continue;
    const keys = flag.path.split(".");
    const last = keys.pop()!;
    let target = settings;
    for (const key of keys) target = (target[key] ??= {}) as Record<string, unknown>;
    target[last] = value;
  }
  return settings;
}

const summary = (tenant: Tenant) => ({ id: tenant.id, name: tenant.name });

export const tenantCreate: Command = {
  name: "tenant create",
  usage: `tenant create --name <name> ${SETTINGS_USAGE} [--json]`,
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
