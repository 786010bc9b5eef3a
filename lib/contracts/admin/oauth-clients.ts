import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import type { OAuthClient } from "@/lib/openid";
import { TenantIdParam, platformErrors } from "../schemas";
import { pageQuery, pageResponse } from "./pagination";

const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

const tenantParams = z.object({ tenantId: TenantIdParam });
const clientParams = tenantParams.extend({
  clientId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._~-]+$/, "must be a client id")
    .meta({ description: "The client's `client_id`", example: "client_3f0c9a2e5b7d4e1fa8c6b2d9e0f1a3c4" }),
});

const admin = {
  surface: "admin",
  auth: { kind: "admin-key" },
  loadsTenant: true,
  tags: ["OAuth clients"] as string[],
} as const;

const timestamp = z.iso.datetime({ offset: true });

const GRANT_TYPES = ["authorization_code", "refresh_token", "client_credentials"] as const;
const AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"] as const;

const Uri = z.string().min(1).max(2048);
const UriList = z.array(Uri).max(20);

export const OAuthClientSchema = z
  .object({
    client_id: z.string(),
    client_name: z.string().nullable(),
    application_type: z.enum(["web", "native"]),
    first_party: z.boolean().meta({ description: "First-party clients skip the consent page" }),
    token_endpoint_auth_method: z.enum(AUTH_METHODS).meta({
      description: "`none`: a public client (PKCE required); else a confidential one with a secret",
    }),
    redirect_uris: z.array(z.string()),
    post_logout_redirect_uris: z.array(z.string()),
    grant_types: z.array(z.string()),
    scope: z
      .string()
      .nullable()
      .meta({ description: "The scopes the client may ask for (space-separated); null: all" }),
    backchannel_logout_uri: z.string().nullable(),
    resources: z.array(z.string()).meta({ description: "RFC 8707 resources it may ask tokens for" }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "OAuthClient", description: "An OpenID Connect client (relying party) of the tenant" });

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);

export const oauthClientWire = (client: OAuthClient): z.input<typeof OAuthClientSchema> => {
  const { metadata } = client;
  return {
    client_id: client.clientId,
    client_name: client.name,
    application_type: metadata.application_type === "native" ? "native" : "web",
    first_party: client.firstParty,
    token_endpoint_auth_method:
      (stringOrNull(metadata.token_endpoint_auth_method) as (typeof AUTH_METHODS)[number] | null) ??
      "client_secret_basic",
    redirect_uris: strings(metadata.redirect_uris),
    post_logout_redirect_uris: strings(metadata.post_logout_redirect_uris),
    grant_types: strings(metadata.grant_types),
    scope: stringOrNull(metadata.scope),
    backchannel_logout_uri: stringOrNull(metadata.backchannel_logout_uri),
    resources: strings(metadata.resources),
    created_at: client.createdAt.toISOString(),
    updated_at: client.updatedAt.toISOString(),
  };
};

export const CreatedOAuthClient = OAuthClientSchema.extend({
  client_secret: z.string().optional().meta({
    description: "A confidential client's secret: shown only in this response (Sesame keeps its hash)",
  }),
}).meta({ id: "CreatedOAuthClient" });

const fields = {
  client_name: z.string().min(1).max(200),
  application_type: z.enum(["web", "native"]).meta({
    description: "Default `web`; `native` for an app with a private-use scheme redirect URI (RFC 8252)",
  }),
  redirect_uris: UriList.meta({
    description:
      "Exact redirect URIs: https, a native app's private-use scheme, or http on localhost, 127.0.0.1, " +
      "[::1] (RFC 8252)",
  }),
  post_logout_redirect_uris: UriList.meta({ description: "Exact URIs for RP-initiated logout" }),
  grant_types: z
    .array(z.enum(GRANT_TYPES))
    .min(1)
    .max(3)
    .meta({ description: "Default `authorization_code`" }),
  token_endpoint_auth_method: z
    .enum(AUTH_METHODS)
    .meta({ description: "Default `client_secret_basic`; `none` for a public client" }),
  scope: z
    .string()
    .max(200)
    .meta({ description: "Space-separated scopes it may ask for (`openid profile email offline_access`)" }),
  backchannel_logout_uri: Uri.meta({
    description: "OpenID Connect Back-Channel Logout 1.0: where logout tokens are POSTed",
  }),
  resources: UriList.meta({ description: "Absolute URIs of resource servers (RFC 8707)" }),
  first_party: z.boolean().meta({ description: "Skip the consent page (default false)" }),
};

const CreateOAuthClientBody = z
  .object({
    ...fields,
    application_type: fields.application_type.optional(),
    redirect_uris: fields.redirect_uris.optional(),
    post_logout_redirect_uris: fields.post_logout_redirect_uris.optional(),
    grant_types: fields.grant_types.optional(),
    token_endpoint_auth_method: fields.token_endpoint_auth_method.optional(),
    scope: fields.scope.optional(),
    backchannel_logout_uri: fields.backchannel_logout_uri.optional(),
    resources: fields.resources.optional(),
    first_party: fields.first_party.optional(),
  })
  .meta({ id: "CreateOAuthClient" });

const UpdateOAuthClientBody = z
  .object({
    client_name: fields.client_name.optional(),
    application_type: fields.application_type.optional(),
    redirect_uris: fields.redirect_uris.optional(),
    post_logout_redirect_uris: fields.post_logout_redirect_uris.nullable().optional(),
    grant_types: fields.grant_types.optional(),
    token_endpoint_auth_method: fields.token_endpoint_auth_method.optional(),
    scope: fields.scope.nullable().optional(),
    backchannel_logout_uri: fields.backchannel_logout_uri.nullable().optional(),
    resources: fields.resources.nullable().optional(),
    first_party: fields.first_party.optional(),
  })
  .meta({ id: "UpdateOAuthClient" });

export const listOAuthClients = defineContract({
  ...admin,
  method: "GET",
  path: "/t/{tenantId}/admin/oauth/clients",
  operationId: "listOAuthClients",
  summary: "List OAuth clients",
  description:
    "The tenant's OpenID Connect clients, oldest first, paged (`page`, `per_page`); `X-Total-Count` " +
    "gives the total, `Link` the pages. Secrets are never listed.",
  params: tenantParams,
  query: z.object(pageQuery("Clients")),
  responses: {
    "200": pageResponse("A page of clients", OAuthClientSchema, "Clients, over all pages"),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const createOAuthClient = defineContract({
  ...admin,
  method: "POST",
  path: "/t/{tenantId}/admin/oauth/clients",
  operationId: "createOAuthClient",
  summary: "Create an OAuth client",
  description:
    "Registers a relying party of the tenant's OpenID Provider (the same rules as dynamic registration: " +
    "exact redirect URIs, http only on loopback). A confidential client's `client_secret` is in this " +
    "response only.",
  params: tenantParams,
  body: CreateOAuthClientBody,
  responses: {
    "201": json("The new client", CreatedOAuthClient),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const getOAuthClient = defineContract({
  ...admin,
  method: "GET",
  path: "/t/{tenantId}/admin/oauth/clients/{clientId}",
  operationId: "getOAuthClient",
  summary: "Get an OAuth client",
  params: clientParams,
  responses: { "200": json("The client", OAuthClientSchema), ...platformErrors(400, 401, 404, 500) },
});

export const updateOAuthClient = defineContract({
  ...admin,
  method: "PATCH",
  path: "/t/{tenantId}/admin/oauth/clients/{clientId}",
  operationId: "updateOAuthClient",
  summary: "Change an OAuth client",
  description:
    "Only the fields given change; `null` removes an optional one. The secret stays (rotate it with " +
    "`POST …/secret`); a public client cannot become confidential.",
  params: clientParams,
  body: UpdateOAuthClientBody,
  responses: { "200": json("The client", OAuthClientSchema), ...platformErrors(400, 401, 404, 500) },
});

export const deleteOAuthClient = defineContract({
  ...admin,
  method: "DELETE",
  path: "/t/{tenantId}/admin/oauth/clients/{clientId}",
  operationId: "deleteOAuthClient",
  summary: "Delete an OAuth client",
  description: "Its consents go with it and its tokens stop working.",
  params: clientParams,
  responses: { "204": { description: "Deleted" }, ...platformErrors(400, 401, 404, 500) },
});

export const rotateOAuthClientSecret = defineContract({
  ...admin,
  method: "POST",
  path: "/t/{tenantId}/admin/oauth/clients/{clientId}/secret",
  operationId: "rotateOAuthClientSecret",
  summary: "Rotate an OAuth client's secret",
  description:
    "A new secret for a confidential client, shown only in this response; the old one stops working at " +
    "once. A public client has none (400).",
  params: clientParams,
  responses: {
    "200": json(
      "The new secret",
      z.object({ client_id: z.string(), client_secret: z.string() }).meta({ id: "OAuthClientSecret" }),
    ),
    ...platformErrors(400, 401, 404, 500),
  },
});
