import { z } from "zod";
import type { ThirdPartyProviderRow } from "@/lib/db/schema";
import { defineContract } from "@/lib/contracts/contract";
import {
  PROVIDER_KINDS,
  callbackUrl,
  type CreateProviderInput,
  type UpdateProviderInput,
} from "@/lib/thirdparty";
import { ProviderOptions } from "@/lib/thirdparty/kinds";
import { TenantIdParam, platformErrors } from "../schemas";

const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

const tenantParams = z.object({ tenantId: TenantIdParam });
const providerParams = tenantParams.extend({
  slug: z.string().min(1).max(63).meta({ description: "The provider's name (`google`, `custom-acme`)" }),
});

const admin = {
  surface: "admin",
  auth: { kind: "admin-key" },
  loadsTenant: true,
  tags: ["Third-party providers"] as string[],
} as const;

const timestamp = z.iso.datetime({ offset: true });

const Mapping = z
  .object({
    sub: z.string().optional(),
    email: z.string().optional(),
    email_verified: z.string().optional(),
    name: z.string().optional(),
  })
  .strict()
  .meta({
    id: "UserInfoMapping",
    description: "User-info fields (dotted paths) for a custom OAuth 2.0 provider",
  });

const OptionsWire = z
  .object({
    issuer: z
      .string()
      .optional()
      .meta({ description: "OIDC: the issuer (discovery); replaces a built-in's" }),
    authorization_endpoint: z.string().optional(),
    token_endpoint: z.string().optional(),
    userinfo_endpoint: z.string().optional(),
    emails_endpoint: z
      .string()
      .optional()
      .meta({ description: "GitHub shape: the list of the user's addresses" }),
    mapping: Mapping.optional(),
    emails_verified: z
      .boolean()
      .optional()
      .meta({ description: "Custom OAuth 2.0: the provider only returns verified addresses" }),
    directory: z
      .string()
      .optional()
      .meta({ description: "Microsoft: `common`, `organizations`, `consumers` or a tenant id" }),
    team_id: z.string().optional().meta({ description: "Apple: the team id" }),
    key_id: z.string().optional().meta({ description: "Apple: the Sign in with Apple key's id" }),
  })
  .strict();

export const ThirdPartyProvider = z
  .object({
    slug: z.string(),
    kind: z.enum(PROVIDER_KINDS),
    display_name: z.string(),
    enabled: z.boolean(),
    client_id: z.string(),
    has_client_secret: z.boolean().meta({ description: "The secret itself is write-only" }),
    scopes: z.array(z.string()).meta({ description: "Empty: the kind's default scopes" }),
    options: OptionsWire.extend({ has_apple_private_key: z.boolean().optional() }),
    allowed_redirect_urls: z.array(z.string()),
    allow_linking: z.boolean(),
    store_tokens: z.boolean(),
    redirect_url: z.string().meta({ description: "The callback URL to register at the provider" }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "ThirdPartyProvider" });

/** The provider as the admin API shows it: never a secret or the Apple key, only whether they are set. */
export function providerWire(row: ThirdPartyProviderRow): z.input<typeof ThirdPartyProvider> {
  const options = ProviderOptions.parse(row.options);
  const wireOptions: z.input<typeof ThirdPartyProvider>["options"] = {
    issuer: options.issuer,
    authorization_endpoint: options.authorizationEndpoint,
    token_endpoint: options.tokenEndpoint,
    userinfo_endpoint: options.userinfoEndpoint,
    emails_endpoint: options.emailsEndpoint,
    mapping: options.mapping && {
      sub: options.mapping.sub,
      email: options.mapping.email,
      email_verified: options.mapping.emailVerified,
      name: options.mapping.name,
    },
    emails_verified: options.emailsVerified,
    directory: options.directory,
    team_id: options.teamId,
    key_id: options.keyId,
    ...(row.kind === "apple" ? { has_apple_private_key: Boolean(options.privateKeySealed) } : {}),
  };
  return {
    slug: row.slug,
    kind: row.kind as (typeof PROVIDER_KINDS)[number],
    display_name: row.displayName,
    enabled: row.enabled,
    client_id: row.clientId,
    has_client_secret: row.clientSecretSealed !== null,
    scopes: row.scopes,
    options: Object.fromEntries(Object.entries(wireOptions).filter(([, value]) => value !== undefined)),
    allowed_redirect_urls: row.allowedRedirectUrls,
    allow_linking: row.allowLinking,
    store_tokens: row.storeTokens,
    redirect_url: callbackUrl(row.tenantId),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const Settable = z
  .object({
    display_name: z.string().optional(),
    enabled: z.boolean().optional(),
    client_id: z.string().optional(),
    client_secret: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "Write-only, sealed at rest; `null` removes it (update)" }),
    scopes: z.array(z.string()).optional(),
    options: OptionsWire.optional(),
    apple_private_key: z
      .string()
      .optional()
      .meta({ description: "Apple: the PKCS#8 PEM key (ES256); write-only" }),
    allowed_redirect_urls: z.array(z.string()).optional(),
    allow_linking: z.boolean().optional().meta({
      description: "Link to an existing user by a verified email from the provider (default false)",
    }),
    store_tokens: z
      .boolean()
      .optional()
      .meta({ description: "Keep the provider's tokens, sealed (default false)" }),
  })
  .strict();

const CreateBody = Settable.extend({
  kind: z.enum(PROVIDER_KINDS),
  slug: z
    .string()
    .optional()
    .meta({ description: "Defaults to the kind for built-ins; required for `oidc`/`oauth2`" }),
  client_id: z.string(),
})
  .strict()
  .meta({ id: "CreateThirdPartyProvider" });

const UpdateBody = Settable.meta({ id: "UpdateThirdPartyProvider" });

type OptionsInput = z.output<typeof OptionsWire> | undefined;

function optionsInput(options: OptionsInput): CreateProviderInput["options"] {
  if (!options) return undefined;
  const mapped = {
    issuer: options.issuer,
    authorizationEndpoint: options.authorization_endpoint,
    tokenEndpoint: options.token_endpoint,
    userinfoEndpoint: options.userinfo_endpoint,
    emailsEndpoint: options.emails_endpoint,
    mapping: options.mapping && {
      sub: options.mapping.sub,
      email: options.mapping.email,
      emailVerified: options.mapping.email_verified,
      name: options.mapping.name,
    },
    emailsVerified: options.emails_verified,
    directory: options.directory,
    teamId: options.team_id,
    keyId: options.key_id,
  };
  return Object.fromEntries(Object.entries(mapped).filter(([, value]) => value !== undefined));
}

function settableInput(body: z.output<typeof Settable>): UpdateProviderInput {
  const mapped: UpdateProviderInput = {
    displayName: body.display_name,
    enabled: body.enabled,
    clientId: body.client_id,
    clientSecret: body.client_secret,
    scopes: body.scopes,
    options: optionsInput(body.options),
    applePrivateKey: body.apple_private_key,
    allowedRedirectUrls: body.allowed_redirect_urls,
    allowLinking: body.allow_linking,
    storeTokens: body.store_tokens,
  };
  return Object.fromEntries(Object.entries(mapped).filter(([, value]) => value !== undefined));
}

/** The domain input of a create body (the domain validates the values). */
export function createProviderInput(body: z.output<typeof CreateBody>): CreateProviderInput {
  return { ...settableInput(body), kind: body.kind, slug: body.slug, clientId: body.client_id };
}

/** The domain input of an update body. */
export const updateProviderInput = (body: z.output<typeof UpdateBody>): UpdateProviderInput =>
  settableInput(body);

export const listThirdPartyProviders = defineContract({
  ...admin,
  method: "GET",
  path: "/t/{tenantId}/admin/thirdparty/providers",
  operationId: "listThirdPartyProviders",
  summary: "List third-party providers",
  params: tenantParams,
  responses: {
    "200": json("The tenant's providers, by slug", z.array(ThirdPartyProvider)),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const createThirdPartyProvider = defineContract({
  ...admin,
  method: "POST",
  path: "/t/{tenantId}/admin/thirdparty/providers",
  operationId: "createThirdPartyProvider",
  summary: "Configure a third-party provider",
  description:
    "A built-in kind (google, github, apple, microsoft, discord, linkedin, gitlab, facebook) with its real " +
    "endpoints, or a custom `oidc` (issuer discovery) or `oauth2` (endpoints and user-info mapping) " +
    "provider. Custom URLs must be https to public addresses. The client secret is sealed and never " +
    "returned. 409 when the slug is taken.",
  params: tenantParams,
  body: CreateBody,
  responses: {
    "201": json("The provider", ThirdPartyProvider),
    ...platformErrors(400, 401, 404, 409, 500),
  },
});

export const getThirdPartyProvider = defineContract({
  ...admin,
  method: "GET",
  path: "/t/{tenantId}/admin/thirdparty/providers/{slug}",
  operationId: "getThirdPartyProvider",
  summary: "Get a third-party provider",
  params: providerParams,
  responses: { "200": json("The provider", ThirdPartyProvider), ...platformErrors(400, 401, 404, 500) },
});

export const updateThirdPartyProvider = defineContract({
  ...admin,
  method: "PATCH",
  path: "/t/{tenantId}/admin/thirdparty/providers/{slug}",
  operationId: "updateThirdPartyProvider",
  summary: "Change a third-party provider's settings",
  description: "Fields not given stay; `options` is replaced whole when given; the secret only when given.",
  params: providerParams,
  body: UpdateBody,
  responses: { "200": json("The provider", ThirdPartyProvider), ...platformErrors(400, 401, 404, 500) },
});

export const deleteThirdPartyProvider = defineContract({
  ...admin,
  method: "DELETE",
  path: "/t/{tenantId}/admin/thirdparty/providers/{slug}",
  operationId: "deleteThirdPartyProvider",
  summary: "Remove a third-party provider",
  description:
    "A built-in provider's identities stay (configuring it again signs the same users in); a custom provider's identities are deleted with it.",
  params: providerParams,
  responses: { "204": { description: "Removed" }, ...platformErrors(400, 401, 404, 500) },
});
