import fs from "node:fs";
import { providerWire } from "@/lib/contracts/admin/thirdparty";
import {
  PROVIDER_KINDS,
  createProvider,
  deleteProvider,
  listProviders,
  updateProvider,
  type CreateProviderInput,
  type UpdateProviderInput,
} from "@/lib/thirdparty";
import { printJson, printTable, UsageError } from "../output";
import type { Command } from "./command";

const CLI = { actor: "cli" } as const;

function tenantOf(values: Record<string, unknown>): string {
  if (typeof values.tenant !== "string") throw new UsageError("--tenant <tenant-id> is required");
  return values.tenant;
}

/** The options `add` and `update` share. Secrets and the Apple key are better read from files. */
const SETTINGS = {
  tenant: { type: "string" },
  "display-name": { type: "string" },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  "client-secret-file": { type: "string" },
  scope: { type: "string", multiple: true },
  issuer: { type: "string" },
  "authorization-endpoint": { type: "string" },
  "token-endpoint": { type: "string" },
  "userinfo-endpoint": { type: "string" },
  "emails-endpoint": { type: "string" },
  "map-sub": { type: "string" },
  "map-email": { type: "string" },
  "map-email-verified": { type: "string" },
  "map-name": { type: "string" },
  directory: { type: "string" },
  "team-id": { type: "string" },
  "key-id": { type: "string" },
  "apple-key-file": { type: "string" },
  "redirect-url": { type: "string", multiple: true },
  enabled: { type: "string" },
  "allow-linking": { type: "string" },
  "store-tokens": { type: "string" },
} as const;

const SETTINGS_USAGE =
  "[--display-name <name>] [--client-secret <secret> | --client-secret-file <path>] [--scope <scope>]... " +
  "[--issuer <url>] [--authorization-endpoint <url> --token-endpoint <url> --userinfo-endpoint <url>] " +
  "[--emails-endpoint <url>] [--map-sub|--map-email|--map-email-verified|--map-name <field>] " +
  "[--directory <id>] [--team-id <id> --key-id <id> --apple-key-file <path>] [--redirect-url <url>]... " +
  "[--enabled true|false] [--allow-linking true|false] [--store-tokens true|false] [--json]";

const text = (values: Record<string, unknown>, name: string) =>
  typeof values[name] === "string" ? (values[name] as string) : undefined;

function flag(values: Record<string, unknown>, name: string): boolean | undefined {
  const value = text(values, name);
  if (value === undefined) return undefined;
  if (value !== "true" && value !== "false") throw new UsageError(`--${name} must be true or false`);
  return value === "true";
}

function readFile(path: string | undefined, what: string): string | undefined {
  if (path === undefined) return undefined;
  try {
    return fs.readFileSync(path, "utf8").trim();
  } catch {
    throw new UsageError(`cannot read the ${what} file ${path}`);
  }
}

const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;

/** The settings given on the command line; `options` only when one of its flags is given. */
function settingsOf(values: Record<string, unknown>): UpdateProviderInput {
  if (text(values, "client-secret") !== undefined && text(values, "client-secret-file") !== undefined) {
    throw new UsageError("give --client-secret or --client-secret-file, not both");
  }
  const mapping = defined({
    sub: text(values, "map-sub"),
    email: text(values, "map-email"),
    emailVerified: text(values, "map-email-verified"),
    name: text(values, "map-name"),
  });
  const options = defined({
    issuer: text(values, "issuer"),
    authorizationEndpoint: text(values, "authorization-endpoint"),
    tokenEndpoint: text(values, "token-endpoint"),
    userinfoEndpoint: text(values, "userinfo-endpoint"),
    emailsEndpoint: text(values, "emails-endpoint"),
    directory: text(values, "directory"),
    teamId: text(values, "team-id"),
    keyId: text(values, "key-id"),
    ...(Object.keys(mapping).length > 0 ? { mapping } : {}),
  });
  const scopes = values.scope as string[] | undefined;
  const redirectUrls = values["redirect-url"] as string[] | undefined;
  return defined({
    displayName: text(values, "display-name"),
    clientId: text(values, "client-id"),
    clientSecret:
      text(values, "client-secret") ?? readFile(text(values, "client-secret-file"), "client secret"),
    scopes,
    allowedRedirectUrls: redirectUrls,
    applePrivateKey: readFile(text(values, "apple-key-file"), "Apple key"),
    enabled: flag(values, "enabled"),
    allowLinking: flag(values, "allow-linking"),
    storeTokens: flag(values, "store-tokens"),
    ...(Object.keys(options).length > 0 ? { options } : {}),
  });
}

function print(row: Parameters<typeof providerWire>[0], json: boolean, verb: string) {
  const wire = providerWire(row);
  if (json) return printJson({ provider: wire });
  process.stdout.write(
    `${verb} provider ${wire.slug} (${wire.kind}). Register this redirect URL at the provider:\n${wire.redirect_url}\n`,
  );
}

export const thirdPartyList: Command = {
  name: "thirdparty list",
  usage: "thirdparty list --tenant <tenant-id> [--json]",
  description: "List a tenant's third-party sign-in providers (secrets are never shown).",
  options: { tenant: { type: "string" } },
  async run({ values, json }) {
    const providers = (await listProviders(tenantOf(values))).map(providerWire);
    if (json) return printJson({ providers });
    printTable(
      providers.map((p) => ({
        slug: p.slug,
        kind: p.kind,
        name: p.display_name,
        enabled: p.enabled,
        clientId: p.client_id,
        secret: p.has_client_secret ? "set" : "none",
        linking: p.allow_linking,
      })),
    );
  },
};

export const thirdPartyAdd: Command = {
  name: "thirdparty add",
  usage: `thirdparty add --tenant <tenant-id> --kind <${PROVIDER_KINDS.join("|")}> [--slug <slug>] --client-id <id> ${SETTINGS_USAGE}`,
  description:
    "Configure a third-party provider (built-in or custom); the client secret and Apple key are sealed.",
  options: { ...SETTINGS, kind: { type: "string" }, slug: { type: "string" } },
  async run({ values, json }) {
    const tenantId = tenantOf(values);
    const kind = text(values, "kind");
    if (!kind) throw new UsageError("--kind is required");
    if (!text(values, "client-id")) throw new UsageError("--client-id is required");
    const input = { ...settingsOf(values), kind, slug: text(values, "slug") } as CreateProviderInput;
    print(await createProvider(tenantId, input, CLI), json, "Added");
  },
};

export const thirdPartyUpdate: Command = {
  name: "thirdparty update",
  usage: `thirdparty update --tenant <tenant-id> <slug> [--client-id <id>] ${SETTINGS_USAGE}`,
  description: "Change a provider's settings; what is not given stays (options given replace the options).",
  options: SETTINGS,
  async run({ values, positionals, json }) {
    const tenantId = tenantOf(values);
    const [slug] = positionals;
    if (!slug) throw new UsageError("the provider's slug is required");
    print(await updateProvider(tenantId, slug, settingsOf(values), CLI), json, "Updated");
  },
};

export const thirdPartyRemove: Command = {
  name: "thirdparty remove",
  usage: "thirdparty remove --tenant <tenant-id> <slug> [--json]",
  description: "Remove a provider (a built-in's identities stay; a custom provider's are deleted).",
  options: { tenant: { type: "string" } },
  async run({ values, positionals, json }) {
    const tenantId = tenantOf(values);
    const [slug] = positionals;
    if (!slug) throw new UsageError("the provider's slug is required");
    const row = await deleteProvider(tenantId, slug, CLI);
    if (json) return printJson({ removed: row.slug });
    process.stdout.write(`Removed provider ${row.slug}\n`);
  },
};

export const THIRD_PARTY_COMMANDS = [thirdPartyList, thirdPartyAdd, thirdPartyUpdate, thirdPartyRemove];
