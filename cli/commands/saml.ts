import fs from "node:fs";
import {
  createSamlProvider,
  deleteSamlProvider,
  listSamlProviders,
  serviceProviderUrls,
  updateSamlProvider,
  type SamlProvider,
} from "@/lib/saml";
import { printJson, printTable, UsageError } from "../output";
import type { Command } from "./command";
import { booleanOption, existingTenant } from "./options";

const CLI = { actor: "cli" } as const;

const tenantOf = existingTenant;

function idOf(values: Record<string, unknown>): string {
  if (typeof values.id !== "string" || !/^[0-9a-f-]{36}$/i.test(values.id)) {
    throw new UsageError("--id <provider-id> (a UUID) is required");
  }
  return values.id;
}

const flag = booleanOption;

const PROVIDER_OPTIONS = {
  tenant: { type: "string" },
  name: { type: "string" },
  domain: { type: "string", multiple: true },
  "metadata-url": { type: "string" },
  "metadata-file": { type: "string" },
  "email-attribute": { type: "string" },
  "name-attribute": { type: "string" },
  "groups-attribute": { type: "string" },
  "sign-requests": { type: "string" },
  "allow-linking": { type: "string" },
  "require-certificate-confirmation": { type: "string" },
  enabled: { type: "string" },
} as const;

/** The admin API's body from the command line's options (absent options stay absent). */
function providerBody(values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (typeof values.name === "string") body.name = values.name;
  if (Array.isArray(values.domain)) body.domains = values.domain;
  if (typeof values["metadata-url"] === "string") body.metadata_url = values["metadata-url"];
  if (typeof values["metadata-file"] === "string") {
    try {
      body.metadata_xml = fs.readFileSync(values["metadata-file"], "utf8");
    } catch {
      throw new UsageError(`cannot read --metadata-file ${values["metadata-file"]}`);
    }
  }
  const mapping: Record<string, string> = {};
  for (const key of ["email", "name", "groups"]) {
    const value = values[`${key}-attribute`];
    if (typeof value === "string") mapping[key] = value;
  }
  if (Object.keys(mapping).length > 0) body.attribute_mapping = mapping;
  for (const [option, field] of [
    ["sign-requests", "sign_requests"],
    ["allow-linking", "allow_linking"],
    ["require-certificate-confirmation", "require_certificate_confirmation"],
    ["enabled", "enabled"],
  ] as const) {
    const value = flag(values, option);
    if (value !== undefined) body[field] = value;
  }
  return body;
}

const summary = (p: SamlProvider) => ({
  id: p.id,
  name: p.name,
  enabled: p.enabled,
  domains: p.domains.join(" "),
  entityId: p.entityId,
  signRequests: p.signRequests,
  allowLinking: p.allowLinking,
  pendingCertificates: p.pendingCertificates.length,
});

const PROVIDER_USAGE =
  "[--email-attribute <name>] [--name-attribute <name>] [--groups-attribute <name>] " +
  "[--sign-requests true|false] [--allow-linking true|false] [--require-certificate-confirmation true|false] " +
  "[--enabled true|false] [--json]";

export const samlList: Command = {
  name: "saml list",
  usage: "saml list --tenant <tenant-id> [--json]",
  description: "List a tenant's SAML identity providers and print the URLs to give them (entity id, ACS).",
  options: { tenant: { type: "string" } },
  async run({ values, json }) {
    const tenantId = await tenantOf(values);
    const providers = await listSamlProviders(tenantId);
    const sp = serviceProviderUrls(tenantId);
    if (json) return printJson({ serviceProvider: sp, providers });
    process.stdout.write(`SP entity id / metadata: ${sp.entityId}\nACS (HTTP-POST): ${sp.acsUrl}\n`);
    printTable(providers.map(summary));
  },
};

export const samlAdd: Command = {
  name: "saml add",
  usage: `saml add --tenant <tenant-id> --name <name> --domain <domain>... (--metadata-url <url> | --metadata-file <path>) ${PROVIDER_USAGE}`,
  description:
    "Add a SAML identity provider for email domains; its metadata is read now (a URL through the same SSRF guard as webhooks).",
  options: PROVIDER_OPTIONS,
  async run({ values, json }) {
    const tenantId = await tenantOf(values);
    const provider = await createSamlProvider(tenantId, providerBody(values), CLI);
    if (json) return printJson({ provider });
    process.stdout.write(
      `Added SAML identity provider ${provider.id} (${provider.name}) for ${provider.domains.join(", ")}\n`,
    );
  },
};

export const samlUpdate: Command = {
  name: "saml update",
  usage: `saml update --tenant <tenant-id> --id <provider-id> [--name <name>] [--domain <domain>...] [--metadata-url <url> | --metadata-file <path> | --refresh-metadata | --confirm-certificates true|false] ${PROVIDER_USAGE}`,
  description:
    "Change a SAML identity provider; --refresh-metadata fetches its metadata URL again; " +
    "--confirm-certificates takes (true) or drops (false) the certificates a refresh left pending.",
  options: {
    ...PROVIDER_OPTIONS,
    id: { type: "string" },
    "refresh-metadata": { type: "boolean" },
    "confirm-certificates": { type: "string" },
  },
  async run({ values, json }) {
    const tenantId = await tenantOf(values);
    const body = providerBody(values);
    if (values["refresh-metadata"] === true) body.refresh_metadata = true;
    const confirm = flag(values, "confirm-certificates");
    if (confirm !== undefined) body.confirm_certificates = confirm;
    if (Object.keys(body).length === 0) throw new UsageError("nothing to change");
    const provider = await updateSamlProvider(tenantId, idOf(values), body, CLI);
    if (json) return printJson({ provider });
    process.stdout.write(`Updated SAML identity provider ${provider.id} (${provider.name})\n`);
  },
};

export const samlRemove: Command = {
  name: "saml remove",
  usage: "saml remove --tenant <tenant-id> --id <provider-id> [--json]",
  description: "Remove a SAML identity provider (its users keep their accounts).",
  options: { tenant: { type: "string" }, id: { type: "string" } },
  async run({ values, json }) {
    const tenantId = await tenantOf(values);
    const id = idOf(values);
    await deleteSamlProvider(tenantId, id, CLI);
    if (json) return printJson({ removed: id });
    process.stdout.write(`Removed SAML identity provider ${id}\n`);
  },
};
