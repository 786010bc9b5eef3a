import { oauthClientWire } from "@/lib/contracts/admin/oauth-clients";
import type { OAuthClient, OAuthClientInput } from "@/lib/openid";
import { printJson, printTable, UsageError } from "../output";
import type { Command } from "./command";
import { booleanOption, existingTenant, fileOption } from "./options";

const CLI = { actor: "cli" } as const;

/**
 * lib/openid loads oidc-provider, which warns on Node 20 as it loads: only these commands load it, so the
 * other commands' output stays what they print.
 */
const openid = () => import("@/lib/openid");

function idOf(values: Record<string, unknown>): string {
  if (typeof values.id !== "string" || values.id.length === 0) {
    throw new UsageError("--id <client-id> is required");
  }
  return values.id;
}

/** The options `create` and `update` share. */
const SETTINGS = {
  tenant: { type: "string" },
  name: { type: "string" },
  "redirect-uri": { type: "string", multiple: true },
  "post-logout-redirect-uri": { type: "string", multiple: true },
  "grant-type": { type: "string", multiple: true },
  scope: { type: "string" },
  "backchannel-logout-uri": { type: "string" },
  resource: { type: "string", multiple: true },
  "application-type": { type: "string" },
  "first-party": { type: "string" },
} as const;

const SETTINGS_USAGE =
  "[--post-logout-redirect-uri <uri>]... [--grant-type authorization_code|refresh_token|client_credentials]... " +
  '[--scope "openid email profile offline_access"] [--backchannel-logout-uri <uri>] [--resource <uri>]... ' +
  "[--application-type web|native] [--first-party true|false] [--json]";

/** The client settings given on the command line (absent options stay absent). */
function settings(values: Record<string, unknown>): OAuthClientInput {
  const input: OAuthClientInput = {};
  if (typeof values.name === "string") input.client_name = values.name;
  if (Array.isArray(values["redirect-uri"])) input.redirect_uris = values["redirect-uri"];
  if (Array.isArray(values["post-logout-redirect-uri"])) {
    input.post_logout_redirect_uris = values["post-logout-redirect-uri"];
  }
  if (Array.isArray(values["grant-type"])) {
    input.grant_types = values["grant-type"] as OAuthClientInput["grant_types"];
  }
  if (typeof values.scope === "string") input.scope = values.scope;
  if (typeof values["backchannel-logout-uri"] === "string") {
    input.backchannel_logout_uri = values["backchannel-logout-uri"];
  }
  if (Array.isArray(values.resource)) input.resources = values.resource;
  const type = values["application-type"];
  if (type !== undefined) {
    if (type !== "web" && type !== "native") throw new UsageError("--application-type must be web or native");
    input.application_type = type;
  }
  const firstParty = booleanOption(values, "first-party");
  if (firstParty !== undefined) input.first_party = firstParty;
  return input;
}

const summary = (client: OAuthClient) => {
  const wire = oauthClientWire(client);
  return {
    clientId: wire.client_id,
    name: wire.client_name,
    auth: wire.token_endpoint_auth_method,
    firstParty: wire.first_party,
    redirectUris: wire.redirect_uris.join(" "),
  };
};

/** Says the secret once, on stdout: the only time it is shown. */
function printSecret(secret: string | undefined, fromFile: boolean) {
  if (!secret || fromFile) return;
  process.stdout.write(`Client secret (shown only now; Sesame keeps only its hash):\n${secret}\n`);
}

export const oauthClientList: Command = {
  name: "oauth-client list",
  usage: "oauth-client list --tenant <tenant-id> [--json]",
  description: "List a tenant's OpenID Connect clients (never their secrets).",
  options: { tenant: { type: "string" } },
  async run({ values, json }) {
    const tenantId = await existingTenant(values);
    const { listOAuthClients } = await openid();
    const clients: OAuthClient[] = [];
    for (let page = 1; ; page++) {
      const { clients: batch, total } = await listOAuthClients(tenantId, { page, perPage: 100 });
      clients.push(...batch);
      if (clients.length >= total || batch.length === 0) break;
    }
    if (json) return printJson({ clients: clients.map(oauthClientWire) });
    printTable(clients.map(summary));
  },
};

export const oauthClientCreate: Command = {
  name: "oauth-client create",
  usage: `oauth-client create --tenant <tenant-id> --name <name> --redirect-uri <uri>... [--public | --secret-file <path>] ${SETTINGS_USAGE}`,
  description:
    "Register an OpenID Connect client. A confidential client's secret is read from --secret-file (32+ " +
    "characters) or generated and printed once; --public makes a public client (PKCE, no secret).",
  options: { ...SETTINGS, public: { type: "boolean" }, "secret-file": { type: "string" } },
  async run({ values, json }) {
    const tenantId = await existingTenant(values);
    const input = settings(values);
    if (input.client_name === undefined) throw new UsageError("--name <name> is required");
    const given = fileOption(values["secret-file"], "secret");
    if (values.public === true) {
      if (given !== undefined) throw new UsageError("a --public client has no secret: drop --secret-file");
      input.token_endpoint_auth_method = "none";
    }
    const { createOAuthClient } = await openid();
    const { client, secret } = await createOAuthClient(tenantId, input, CLI, { secret: given });
    if (json) {
      return printJson({
        client: oauthClientWire(client),
        ...(secret && given === undefined ? { client_secret: secret } : {}),
      });
    }
    process.stdout.write(`Created OAuth client ${client.clientId} (${client.name})\n`);
    printSecret(secret, given !== undefined);
  },
};

export const oauthClientUpdate: Command = {
  name: "oauth-client update",
  usage: `oauth-client update --tenant <tenant-id> --id <client-id> [--name <name>] [--redirect-uri <uri>]... ${SETTINGS_USAGE}`,
  description: "Change an OpenID Connect client: the options given replace those settings (lists whole).",
  options: { ...SETTINGS, id: { type: "string" } },
  async run({ values, json }) {
    const tenantId = await existingTenant(values);
    const id = idOf(values);
    const input = settings(values);
    if (Object.keys(input).length === 0) throw new UsageError("nothing to change");
    const { updateOAuthClient } = await openid();
    const client = await updateOAuthClient(tenantId, id, input, CLI);
    if (json) return printJson({ client: oauthClientWire(client) });
    process.stdout.write(`Updated OAuth client ${client.clientId} (${client.name})\n`);
  },
};

export const oauthClientRotateSecret: Command = {
  name: "oauth-client rotate-secret",
  usage: "oauth-client rotate-secret --tenant <tenant-id> --id <client-id> [--secret-file <path>] [--json]",
  description:
    "A new secret for a confidential client, from --secret-file or generated and printed once; the old one stops working at once.",
  options: { tenant: { type: "string" }, id: { type: "string" }, "secret-file": { type: "string" } },
  async run({ values, json }) {
    const tenantId = await existingTenant(values);
    const id = idOf(values);
    const given = fileOption(values["secret-file"], "secret");
    const { rotateOAuthClientSecret } = await openid();
    const { secret } = await rotateOAuthClientSecret(tenantId, id, CLI, { secret: given });
    if (json) return printJson({ client_id: id, ...(given === undefined ? { client_secret: secret } : {}) });
    process.stdout.write(`Rotated the secret of OAuth client ${id}\n`);
    printSecret(secret, given !== undefined);
  },
};

export const oauthClientRemove: Command = {
  name: "oauth-client remove",
  usage: "oauth-client remove --tenant <tenant-id> --id <client-id> [--json]",
  description: "Delete an OpenID Connect client (its consents go; its tokens stop working).",
  options: { tenant: { type: "string" }, id: { type: "string" } },
  async run({ values, json }) {
    const tenantId = await existingTenant(values);
    const id = idOf(values);
    const { deleteOAuthClient } = await openid();
    await deleteOAuthClient(tenantId, id, CLI);
    if (json) return printJson({ removed: id });
    process.stdout.write(`Removed OAuth client ${id}\n`);
  },
};

export const OAUTH_CLIENT_COMMANDS = [
  oauthClientList,
  oauthClientCreate,
  oauthClientUpdate,
  oauthClientRotateSecret,
  oauthClientRemove,
];
