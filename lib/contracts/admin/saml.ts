import { z } from "zod";
import type { SamlIdentityProviderRow } from "@/lib/db/schema";
import { defineContract } from "@/lib/contracts/contract";
import { CreateSamlProviderInput, UpdateSamlProviderInput } from "@/lib/saml";
import { TenantIdParam, platformErrors } from "../schemas";

const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

const tenantParams = z.object({ tenantId: TenantIdParam });
const providerParams = tenantParams.extend({
  providerId: z.uuid("must be a UUID").meta({ description: "The identity provider's id" }),
});

const admin = {
  surface: "admin",
  auth: { kind: "admin-key" },
  loadsTenant: true,
  tags: ["SAML"] as string[],
} as const;

const timestamp = z.iso.datetime({ offset: true });

export const SamlIdentityProvider = z
  .object({
    id: z.uuid(),
    name: z.string(),
    enabled: z.boolean(),
    domains: z.array(z.string()).meta({ description: "Email domains routed to this IdP (lower-cased)" }),
    metadata_url: z.string().nullable().meta({ description: "null when the metadata was given as XML" }),
    entity_id: z.string().meta({ description: "The IdP's entity id, from its metadata" }),
    sso_url: z
      .string()
      .meta({ description: "The IdP's HTTP-Redirect SingleSignOnService, from its metadata" }),
    certificates: z.array(z.string()).meta({ description: "The IdP's signing certificates (PEM)" }),
    pending_certificates: z.array(z.string()).meta({
      description:
        "Certificates a metadata refresh brought while require_certificate_confirmation is on (PEM): not " +
        "used until confirmed with confirm_certificates: true; empty when nothing waits",
    }),
    require_certificate_confirmation: z.boolean().meta({
      description: "A refresh with changed certificates waits for confirmation instead of taking them",
    }),
    attribute_mapping: z
      .object({ email: z.string(), name: z.string(), groups: z.string() })
      .partial()
      .meta({ description: "Attribute names; an absent one falls back to the usual names (docs/saml.md)" }),
    sign_requests: z.boolean(),
    allow_linking: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "SamlIdentityProvider" });

export const samlProviderAdminWire = (
  row: SamlIdentityProviderRow,
): z.input<typeof SamlIdentityProvider> => ({
  id: row.id,
  name: row.name,
  enabled: row.enabled,
  domains: row.domains,
  metadata_url: row.metadataUrl,
  entity_id: row.entityId,
  sso_url: row.ssoUrl,
  certificates: row.certificates,
  pending_certificates: row.pendingCertificates,
  require_certificate_confirmation: row.requireCertificateConfirmation,
  attribute_mapping: row.attributeMapping as Record<string, string>,
  sign_requests: row.signRequests,
  allow_linking: row.allowLinking,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export const listSamlProviders = defineContract({
  ...admin,
  method: "GET",
  path: "/t/{tenantId}/admin/saml/providers",
  operationId: "listSamlProviders",
  summary: "List SAML identity providers",
  params: tenantParams,
  responses: {
    "200": json("The identity providers, oldest first", z.array(SamlIdentityProvider)),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const createSamlProvider = defineContract({
  ...admin,
  method: "POST",
  path: "/t/{tenantId}/admin/saml/providers",
  operationId: "createSamlProvider",
  summary: "Add a SAML identity provider",
  description:
    "Give the IdP's metadata as `metadata_url` (fetched now: https, public addresses only; http to " +
    "loopback only with SESAME_WEBHOOKS_ALLOW_PRIVATE=true) or as `metadata_xml`; its entity id, " +
    "HTTP-Redirect SSO URL and signing certificates are read from it. A domain may belong to one IdP of " +
    "the tenant (409).",
  params: tenantParams,
  body: CreateSamlProviderInput,
  responses: {
    "201": json("The new identity provider", SamlIdentityProvider),
    ...platformErrors(400, 401, 404, 409, 500),
  },
});

export const getSamlProvider = defineContract({
  ...admin,
  method: "GET",
  path: "/t/{tenantId}/admin/saml/providers/{providerId}",
  operationId: "getSamlProvider",
  summary: "Get a SAML identity provider",
  params: providerParams,
  responses: {
    "200": json("The identity provider", SamlIdentityProvider),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const updateSamlProvider = defineContract({
  ...admin,
  method: "PATCH",
  path: "/t/{tenantId}/admin/saml/providers/{providerId}",
  operationId: "updateSamlProvider",
  summary: "Change a SAML identity provider",
  description:
    "Only the fields given change. New metadata (`metadata_url` or `metadata_xml`) or " +
    "`refresh_metadata: true` (fetch the URL again, e.g. after the IdP rolled its certificate) re-reads " +
    "entity id, SSO URL and certificates. Changed certificates are audited " +
    "(`saml.provider.certificates_changed`) and fired as the webhook event " +
    "`saml_provider.certificate_changed`; with `require_certificate_confirmation` on, a refresh leaves them " +
    "in `pending_certificates`, unused, until `confirm_certificates: true` takes them (`false` drops them; " +
    "400 when nothing is pending).",
  params: providerParams,
  body: UpdateSamlProviderInput,
  responses: {
    "200": json("The identity provider", SamlIdentityProvider),
    ...platformErrors(400, 401, 404, 409, 500),
  },
});

export const deleteSamlProvider = defineContract({
  ...admin,
  method: "DELETE",
  path: "/t/{tenantId}/admin/saml/providers/{providerId}",
  operationId: "deleteSamlProvider",
  summary: "Remove a SAML identity provider",
  description: "Its users keep their accounts; their SAML identities stay, unused.",
  params: providerParams,
  responses: { "204": { description: "Removed" }, ...platformErrors(400, 401, 404, 500) },
});
