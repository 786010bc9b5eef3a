import { importPKCS8 } from "jose";
import { z } from "zod";
import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { seal } from "@/lib/crypto";
import { transaction } from "@/lib/db";
import type { ThirdPartyProviderRow } from "@/lib/db/schema";
import { AppError, ValidationFailed } from "@/lib/errors";
import { removeProviderIdentities } from "@/lib/identities";
import { checkCallbackUrl, CallbackRefused } from "@/lib/webhooks/ssrf";
import { allowPrivatePeers } from "./fetch";
import { KINDS, PROVIDER_KINDS, ProviderOptions, type ProviderKind } from "./kinds";
import {
  deleteProviderRow,
  insertProvider,
  selectProvider,
  selectProviders,
  updateProviderRow,
  type NewProviderRow,
} from "./store";

/** Purposes of the sealed values (bound to tenant and slug, so a value cannot move to another row). */
export const SECRET_PURPOSE = "third-party-secret";
export const APPLE_KEY_PURPOSE = "third-party-apple-key";
export const sealContext = (tenantId: string, slug: string) => `${tenantId}/${slug}`;

/** Microsoft's multi-tenant directories (their ID tokens name the user's own directory as issuer). */
const MULTI_TENANT = new Set(["common", "organizations"]);

/** Path segments of the public routes that a provider's slug cannot take. */
const RESERVED_SLUGS = new Set(["callback", "auth"]);

export const ProviderSlug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "must be 1 to 63 lower-case letters, digits or dashes")
  .refine((slug) => !RESERVED_SLUGS.has(slug), "is reserved");

const Scope = z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/, "must be an OAuth scope token");
const RedirectUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .max(2048)
  .refine((value) => !new URL(value).hash, "must not have a fragment");

/** What an operator sets (the options without the sealed Apple key; the key arrives as `applePrivateKey`). */
const SettableOptions = ProviderOptions.omit({ privateKeySealed: true }).strict();

const Settable = z.object({
  displayName: z.string().trim().min(1).max(100).optional(),
  enabled: z.boolean().optional(),
  clientId: z.string().min(1).max(500),
  /** Write-only: sealed at once, never returned. `null` on update removes it. */
  clientSecret: z.string().min(1).max(4096).nullable().optional(),
  scopes: z.array(Scope).max(50).optional(),
  options: SettableOptions.optional(),
  /** Apple: the PKCS#8 PEM of the Sign in with Apple key (ES256); write-only, sealed. */
  applePrivateKey: z.string().min(1).max(10_000).optional(),
  allowedRedirectUrls: z.array(RedirectUrl).max(50).optional(),
  allowLinking: z.boolean().optional(),
  storeTokens: z.boolean().optional(),
});

export const CreateProviderInput = Settable.extend({
  kind: z.enum(PROVIDER_KINDS),
  /** Defaults to the kind for built-ins; custom providers must name themselves. */
  slug: ProviderSlug.optional(),
});
export type CreateProviderInput = z.input<typeof CreateProviderInput>;

export const UpdateProviderInput = Settable.partial();
export type UpdateProviderInput = z.input<typeof UpdateProviderInput>;

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new ValidationFailed(
      result.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`),
    );
  }
  return result.data;
}

/** A custom provider's URLs must pass the SSRF guard's form check now (their addresses at each use). */
function checkPeerUrl(name: string, value: string | undefined) {
  if (!value) return;
  try {
    checkCallbackUrl(value, allowPrivatePeers());
  } catch (error) {
    if (error instanceof CallbackRefused) {
      throw new ValidationFailed([`options.${name}: ${error.message.replace(/^callback: /, "")}`]);
    }
    throw error;
  }
}

function checkKindRules(
  kind: ProviderKind,
  options: z.output<typeof SettableOptions>,
  row: { clientSecret: boolean; appleKey: boolean },
) {
  const definition = KINDS[kind];
  for (const name of [
    "issuer",
    "authorizationEndpoint",
    "tokenEndpoint",
    "userinfoEndpoint",
    "emailsEndpoint",
  ] as const) {
    checkPeerUrl(name, options[name]);
  }
  const missing: string[] = [];
  if (kind === "oidc" && !options.issuer)
    missing.push("options.issuer: is required for a custom OIDC provider");
  if (kind === "oauth2") {
    for (const name of ["authorizationEndpoint", "tokenEndpoint", "userinfoEndpoint"] as const) {
      if (!options[name]) missing.push(`options.${name}: is required for a custom OAuth 2.0 provider`);
    }
  }
  if (definition.protocol === "oidc" && (options.authorizationEndpoint || options.tokenEndpoint)) {
    missing.push("options: an OIDC provider takes an issuer, not endpoints");
  }
  if (kind === "apple") {
    if (!options.teamId) missing.push("options.teamId: is required for Apple");
    if (!options.keyId) missing.push("options.keyId: is required for Apple");
    if (!row.appleKey) missing.push("applePrivateKey: is required for Apple");
  } else if (!row.clientSecret) {
    missing.push("clientSecret: is required");
  }
  if (options.directory && kind !== "microsoft") missing.push("options.directory: only for Microsoft");
  if (kind === "microsoft" && !options.issuer && MULTI_TENANT.has(options.directory ?? "common")) {
    // The multi-tenant endpoints issue ID tokens whose issuer names the user's own directory; the exact
    // issuer check (openid-client) cannot accept them, so a directory must be named.
    missing.push(
      "options.directory: a Microsoft Entra tenant id (or `consumers`) is required; `common` and " +
        "`organizations` issue ID tokens whose issuer cannot be checked",
    );
  }
  if (missing.length > 0) throw new ValidationFailed(missing);
}

async function sealAppleKey(tenantId: string, slug: string, pem: string): Promise<string> {
  try {
    await importPKCS8(pem, "ES256");
  } catch {
    throw new ValidationFailed(["applePrivateKey: must be a PKCS#8 PEM EC P-256 private key"]);
  }
  return seal(pem, APPLE_KEY_PURPOSE, sealContext(tenantId, slug));
}

/** The tenant's providers, by slug. */
export function listProviders(tenantId: string): Promise<ThirdPartyProviderRow[]> {
  return selectProviders(tenantId);
}

/** One provider; THIRD_PARTY_PROVIDER_NOT_FOUND for an unknown slug (or another tenant's). */
export async function getProvider(tenantId: string, slug: string): Promise<ThirdPartyProviderRow> {
  const row = await selectProvider(tenantId, slug);
  if (!row) throw new AppError("THIRD_PARTY_PROVIDER_NOT_FOUND");
  return row;
}

/** Configures a provider; its secret and Apple key are sealed. THIRD_PARTY_PROVIDER_EXISTS when the slug is taken. */
export async function createProvider(
  tenantId: string,
  input: CreateProviderInput,
  context: AuditContext,
): Promise<ThirdPartyProviderRow> {
  const body = parse(CreateProviderInput, input);
  const kind = body.kind;
  const custom = kind === "oidc" || kind === "oauth2";
  const slug = body.slug ?? (custom ? undefined : kind);
  if (!slug) throw new ValidationFailed(["slug: is required for a custom provider"]);
  // Identities are keyed by slug and subject, so a slug must always mean the same provider: a built-in is
  // named by its kind, and a custom provider can never take a built-in's name (a custom issuer choosing
  // `sub` values under the slug `google` would sign in Google users' accounts).
  if (!custom && slug !== kind) throw new ValidationFailed([`slug: a ${kind} provider is named ${kind}`]);
  if (custom && (PROVIDER_KINDS as readonly string[]).includes(slug)) {
    throw new ValidationFailed([`slug: ${slug} is the name of a built-in provider`]);
  }
  const options = body.options ?? {};
  checkKindRules(kind, options, {
    clientSecret: Boolean(body.clientSecret),
    appleKey: Boolean(body.applePrivateKey),
  });
  const values: NewProviderRow = {
    slug,
    kind,
    displayName: body.displayName ?? KINDS[kind].displayName,
    enabled: body.enabled ?? true,
    clientId: body.clientId,
    clientSecretSealed: body.clientSecret
      ? seal(body.clientSecret, SECRET_PURPOSE, sealContext(tenantId, slug))
      : null,
    scopes: body.scopes ?? [],
    options: {
      ...options,
      ...(body.applePrivateKey
        ? { privateKeySealed: await sealAppleKey(tenantId, slug, body.applePrivateKey) }
        : {}),
    },
    allowedRedirectUrls: body.allowedRedirectUrls ?? [],
    allowLinking: body.allowLinking ?? false,
    storeTokens: body.storeTokens ?? false,
  };
  const row = await insertProvider(tenantId, values);
  if (!row) throw new AppError("THIRD_PARTY_PROVIDER_EXISTS", `a provider named ${slug} exists`);
  await recordAuditEvent(tenantId, {
    ...context,
    type: "thirdparty.provider.created",
    details: { provider: slug, kind },
  });
  return row;
}

/** Changes a provider's settings; what is not given stays. Secrets stay sealed, replaced only when given. */
export async function updateProvider(
  tenantId: string,
  slug: string,
  input: UpdateProviderInput,
  context: AuditContext,
): Promise<ThirdPartyProviderRow> {
  const body = parse(UpdateProviderInput, input);
  const current = await getProvider(tenantId, slug);
  const kind = current.kind as ProviderKind;
  const { privateKeySealed, ...currentOptions } = ProviderOptions.parse(current.options);
  const options = body.options ?? currentOptions;
  const appleKey = body.applePrivateKey
    ? await sealAppleKey(tenantId, slug, body.applePrivateKey)
    : privateKeySealed;
  const clientSecretSealed =
    body.clientSecret === undefined
      ? current.clientSecretSealed
      : body.clientSecret === null
        ? null
        : seal(body.clientSecret, SECRET_PURPOSE, sealContext(tenantId, slug));
  checkKindRules(kind, options, {
    clientSecret: Boolean(clientSecretSealed),
    appleKey: Boolean(appleKey),
  });
  const row = await updateProviderRow(tenantId, slug, {
    ...(body.displayName !== undefined ? { displayName: body.displayName } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    ...(body.clientId !== undefined ? { clientId: body.clientId } : {}),
    ...(body.scopes !== undefined ? { scopes: body.scopes } : {}),
    ...(body.allowedRedirectUrls !== undefined ? { allowedRedirectUrls: body.allowedRedirectUrls } : {}),
    ...(body.allowLinking !== undefined ? { allowLinking: body.allowLinking } : {}),
    ...(body.storeTokens !== undefined ? { storeTokens: body.storeTokens } : {}),
    clientSecretSealed,
    options: { ...options, ...(appleKey ? { privateKeySealed: appleKey } : {}) },
  });
  if (!row) throw new AppError("THIRD_PARTY_PROVIDER_NOT_FOUND");
  await recordAuditEvent(tenantId, {
    ...context,
    type: "thirdparty.provider.updated",
    details: { provider: slug, fields: Object.keys(body).sort() },
  });
  return row;
}

/** Removes a provider: a built-in's identities stay (re-adding it signs the same users in), a custom one's go with it. */
export async function deleteProvider(
  tenantId: string,
  slug: string,
  context: AuditContext,
): Promise<ThirdPartyProviderRow> {
  const row = await transaction(async () => {
    const deleted = await deleteProviderRow(tenantId, slug);
    // A custom provider's subjects mean nothing without its issuer: a later provider of the same name
    // must not sign in these users. A built-in's subjects stay the same provider's, so they are kept.
    if (deleted && (deleted.kind === "oidc" || deleted.kind === "oauth2")) {
      await removeProviderIdentities(tenantId, "oauth", slug, context);
    }
    return deleted;
  });
  if (!row) throw new AppError("THIRD_PARTY_PROVIDER_NOT_FOUND");
  await recordAuditEvent(tenantId, {
    ...context,
    type: "thirdparty.provider.deleted",
    details: { provider: slug, kind: row.kind },
  });
  return row;
}
