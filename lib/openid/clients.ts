import { randomBytes } from "node:crypto";
import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { randomToken } from "@/lib/crypto";
import type { OauthClientRow } from "@/lib/db/schema";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getTenant } from "@/lib/tenants";
import { checkRedirectUris, hashClientSecret, logoutUriRefusal } from "./client-rules";
import { emitClientEvent } from "./events";
import { providerFor } from "./provider";
import { deleteClientRow, findClientRow, insertClient, selectClients, updateClientRow } from "./store";

/** A client as Sesame presents it: its metadata, never its secret (or the secret's hash). */
export interface OAuthClient {
  clientId: string;
  name: string | null;
  firstParty: boolean;
  /** Confidential clients authenticate with a secret; public ones (`none`) use PKCE. */
  confidential: boolean;
  metadata: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/** What may be set on a client (RFC 7591 names); the rest of its metadata takes oidc-provider's defaults. */
export interface OAuthClientInput {
  client_name?: string;
  application_type?: "web" | "native";
  redirect_uris?: string[];
  post_logout_redirect_uris?: string[];
  grant_types?: ("authorization_code" | "refresh_token" | "client_credentials")[];
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "none";
  scope?: string;
  backchannel_logout_uri?: string;
  resources?: string[];
  first_party?: boolean;
}

/** An update: a field left out stays, `null` removes an optional one. */
export type OAuthClientChanges = {
  [K in keyof OAuthClientInput]?: OAuthClientInput[K] | null;
};

function present(row: OauthClientRow): OAuthClient {
  const { client_secret: _secret, ...metadata } = row.metadata;
  void _secret;
  return {
    clientId: row.clientId,
    name: typeof metadata.client_name === "string" ? metadata.client_name : null,
    firstParty: row.firstParty,
    confidential: metadata.token_endpoint_auth_method !== "none",
    metadata,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const newClientId = () => `client_${randomBytes(16).toString("hex")}`;

/**
 * Checks metadata with oidc-provider's own client schema plus Sesame's redirect URI rule, then a new
 * `backchannel_logout_uri` (`checkLogoutUri`) with the webhooks' SSRF policy: Sesame POSTs logout tokens
 * to it from the server.
 */
async function validated(
  tenantId: string,
  metadata: Record<string, unknown>,
  given?: string,
  checkLogoutUri = true,
): Promise<{ metadata: Record<string, unknown>; secret?: string }> {
  const provider = await providerFor(await getTenant(tenantId));
  const clean = Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== undefined));
  clean.response_types =
    (clean.grant_types as string[] | undefined)?.includes("authorization_code") === false ? [] : ["code"];
  if (given !== undefined && clean.token_endpoint_auth_method === "none") {
    throw new AppError("VALIDATION_FAILED", "a public client has no secret");
  }
  const secret = clean.token_endpoint_auth_method === "none" ? undefined : (given ?? randomToken(32));
  try {
    checkRedirectUris(clean);
    await (provider.Client as unknown as { validate(m: Record<string, unknown>): Promise<void> }).validate({
      ...clean,
      ...(secret ? { client_secret: secret } : {}),
    });
  } catch (error) {
    const description = (error as { error_description?: string }).error_description;
    if (description) throw new AppError("VALIDATION_FAILED", description);
    throw error;
  }
  if (checkLogoutUri) {
    const problem = await logoutUriRefusal(clean.backchannel_logout_uri);
    if (problem) throw new AppError("VALIDATION_FAILED", `backchannel_logout_uri: ${problem}`);
  }
  return { metadata: clean, secret };
}

/**
 * A secret an operator chose (the CLI's `--secret-file`): stored as a plain SHA-256 like generated ones,
 * so it must be as hard to guess: 32 to 512 printable characters, no spaces.
 */
function checkGivenSecret(secret: string | undefined): void {
  if (secret === undefined) return;
  if (!/^[\x21-\x7e]{32,512}$/.test(secret)) {
    throw new AppError(
      "VALIDATION_FAILED",
      "a client secret must be 32 to 512 printable ASCII characters without spaces",
    );
  }
}

/**
 * Registers a client for the tenant's OpenID Provider. A confidential client gets a new 256-bit secret
 * (or `options.secret`), returned this once; only its SHA-256 is kept.
 */
export async function createOAuthClient(
  tenantId: string,
  input: OAuthClientInput,
  context: AuditContext,
  options: { secret?: string } = {},
): Promise<{ client: OAuthClient; secret?: string }> {
  checkGivenSecret(options.secret);
  const { first_party: firstParty = false, ...rest } = input;
  const clientId = newClientId();
  const { metadata, secret } = await validated(tenantId, { ...rest, client_id: clientId }, options.secret);
  const row = await transaction(async () => {
    const row = await insertClient(
      tenantId,
      clientId,
      { ...metadata, ...(secret ? { client_secret: hashClientSecret(secret) } : {}) },
      firstParty,
    );
    await recordClientChange(tenantId, context, "created", row, { firstParty });
    return row;
  });
  return { client: present(row), secret };
}

/** A page of the tenant's clients, oldest first (`page` from 1), and how many there are. */
export async function listOAuthClients(
  tenantId: string,
  options: { page?: number; perPage?: number } = {},
): Promise<{ clients: OAuthClient[]; total: number }> {
  await getTenant(tenantId);
  const perPage = options.perPage ?? 100;
  const { rows, total } = await selectClients(tenantId, {
    limit: perPage,
    offset: ((options.page ?? 1) - 1) * perPage,
  });
  return { clients: rows.map(present), total };
}

export async function getOAuthClient(tenantId: string, clientId: string): Promise<OAuthClient> {
  const row = await findClientRow(tenantId, clientId);
  if (!row) throw new AppError("OAUTH_CLIENT_NOT_FOUND", "no such client");
  return present(row);
}

/** Changes a client's metadata or first-party flag; its secret stays. */
export async function updateOAuthClient(
  tenantId: string,
  clientId: string,
  input: OAuthClientChanges,
  context: AuditContext,
): Promise<OAuthClient> {
  const row = await findClientRow(tenantId, clientId);
  if (!row) throw new AppError("OAUTH_CLIENT_NOT_FOUND", "no such client");
  const { first_party: firstParty, ...rest } = input;
  const { client_secret: stored, ...current } = row.metadata;
  const changes = Object.fromEntries(
    Object.entries(rest as Record<string, unknown>).map(([key, value]) => [key, value ?? undefined]),
  );
  // A back-channel logout URI kept as it was is not resolved again (deliveries check it every time).
  const { metadata } = await validated(
    tenantId,
    { ...current, ...changes, client_id: clientId },
    undefined,
    "backchannel_logout_uri" in changes,
  );
  if (metadata.token_endpoint_auth_method !== "none" && typeof stored !== "string") {
    throw new AppError(
      "VALIDATION_FAILED",
      "a public client cannot become confidential: create a new client",
    );
  }
  const updated = await transaction(async () => {
    const updated = await updateClientRow(tenantId, clientId, {
      metadata: {
        ...metadata,
        ...(metadata.token_endpoint_auth_method !== "none" ? { client_secret: stored } : {}),
      },
      ...(firstParty == null ? {} : { firstParty }),
    });
    if (!updated) throw new AppError("OAUTH_CLIENT_NOT_FOUND", "no such client");
    await recordClientChange(tenantId, context, "updated", updated);
    return updated;
  });
  return present(updated);
}

/** A new secret (generated, or `options.secret`) for a confidential client; the old one stops at once. */
export async function rotateOAuthClientSecret(
  tenantId: string,
  clientId: string,
  context: AuditContext,
  options: { secret?: string } = {},
): Promise<{ client: OAuthClient; secret: string }> {
  checkGivenSecret(options.secret);
  const row = await findClientRow(tenantId, clientId);
  if (!row) throw new AppError("OAUTH_CLIENT_NOT_FOUND", "no such client");
  if (row.metadata.token_endpoint_auth_method === "none") {
    throw new AppError("VALIDATION_FAILED", "a public client has no secret");
  }
  const secret = options.secret ?? randomToken(32);
  const updated = await transaction(async () => {
    const updated = await updateClientRow(tenantId, clientId, {
      metadata: { ...row.metadata, client_secret: hashClientSecret(secret) },
    });
    if (!updated) throw new AppError("OAUTH_CLIENT_NOT_FOUND", "no such client");
    await recordClientChange(tenantId, context, "secret_rotated", updated);
    return updated;
  });
  return { client: present(updated), secret };
}

/** Removes a client; its consents go with it (its tokens stop working: the client is unknown). */
export async function deleteOAuthClient(
  tenantId: string,
  clientId: string,
  context: AuditContext,
): Promise<void> {
  await transaction(async () => {
    const row = await deleteClientRow(tenantId, clientId);
    if (!row) throw new AppError("OAUTH_CLIENT_NOT_FOUND", "no such client");
    await recordClientChange(tenantId, context, "deleted", row);
  });
}

const WEBHOOK_EVENT = {
  created: "oauth_client.create",
  updated: "oauth_client.update",
  deleted: "oauth_client.delete",
  secret_rotated: "oauth_client.secret_rotate",
} as const;

/** A change to a client: audited (`oauth.client.<change>`) and fired as a webhook event, in its transaction. */
async function recordClientChange(
  tenantId: string,
  context: AuditContext,
  change: keyof typeof WEBHOOK_EVENT,
  row: OauthClientRow,
  details: Record<string, unknown> = {},
): Promise<void> {
  await recordAuditEvent(tenantId, {
    ...context,
    type: `oauth.client.${change}`,
    details: { clientId: row.clientId, ...details },
  });
  await emitClientEvent(tenantId, WEBHOOK_EVENT[change], row);
}
