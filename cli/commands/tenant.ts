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
} as const;

/** `--attachment any` clears the attachment (any authenticator). */
const attachment = (value: unknown) => (value === "any" ? null : text(value));

function policyFrom(values: Record<string, unknown>, prefix: "" | "mfa-") {
  const policy = {
    userVerification: text(values[`${prefix}user-verification`]),
    attestation: text(values[`${prefix}attestation`]),
    residentKey: text(values[`${prefix}resident-key`]),
    attachment: attachment(values[`${prefix}attachment`]),
  };
  const set = Object.entries(policy).filter(([, value]) => value !== undefined);
  return set.length > 0 ? Object.fromEntries(set) : undefined;
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
  const uaf = {
    appId: text(values["uaf-app-id"]),
    facetIds: list(values["uaf-facet"]),
    trustedRoots: trustedRoots(values["uaf-trusted-root"]),
    allowSurrogate: boolean(values["uaf-allow-surrogate"]),
    acceptedAaids: list(values["uaf-aaid"]),
    allowTestAuthenticators: boolean(values["uaf-test-authenticators"]),
  };
  const set = Object.entries(uaf).filter(([, value]) => value !== undefined);
  return set.length > 0 ? Object.fromEntries(set) : undefined;
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
    "[--uaf-test-authenticators true|false] [--json]",
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
    "Change settings of a tenant. Policies and UAF settings merge field by field; --origin and each " +
    "repeatable --uaf-… option replace their whole list (none empties it).",
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
