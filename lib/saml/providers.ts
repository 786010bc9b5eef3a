import { X509Certificate } from "node:crypto";
import { z } from "zod";
import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { SamlIdentityProviderRow } from "@/lib/db/schema";
import { AppError, ValidationFailed, formatZodIssues } from "@/lib/errors";
import { emitWebhookEvent } from "@/lib/webhooks";
import { fetchMetadata, parseIdpMetadata, type IdpMetadata } from "./metadata";
import {
  deleteProviderRow,
  insertProvider,
  lockTenantProviders,
  selectProvider,
  selectProviderByDomain,
  selectProviders,
  updateProviderRow,
  type SamlProviderValues,
} from "./store";

export type SamlProvider = SamlIdentityProviderRow;

/** Attribute names an admin may set; empty means "try the usual names" ({@link DEFAULT_ATTRIBUTES}). */
export interface AttributeMapping {
  email?: string;
  name?: string;
  groups?: string;
}

/**
 * The attribute names tried when the mapping names none, in order: generic names, then the claim URIs
 * Entra ID (and AD FS) send, the OIDs of the SAML2 attribute profile, and what Okta and Google Workspace
 * admins usually type (`email`, `firstName`/`lastName` are combined for the name).
 */
export const DEFAULT_ATTRIBUTES = {
  email: [
    "email",
    "mail",
    "emailAddress",
    "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
    "urn:oid:0.9.2342.19200300.100.1.3",
  ],
  name: [
    "name",
    "displayName",
    "http://schemas.microsoft.com/identity/claims/displayname",
    "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name",
    "urn:oid:2.16.840.1.113730.3.1.241",
  ],
  givenName: ["firstName", "givenName", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname"],
  familyName: ["lastName", "surname", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname"],
  groups: ["groups", "memberOf", "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups"],
} as const;

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const AttributeName = z.string().trim().min(1).max(256);

const Fields = z.object({
  name: z.string().trim().min(1).max(100),
  enabled: z.boolean(),
  domains: z
    .array(z.string().trim().toLowerCase().regex(DOMAIN, "must be a domain name such as example.com"))
    .min(1)
    .max(50)
    .refine((domains) => new Set(domains).size === domains.length, "must not repeat a domain"),
  metadata_url: z.url({ protocol: /^https?$/ }).max(2048),
  metadata_xml: z
    .string()
    .min(1)
    .max(512 * 1024),
  attribute_mapping: z
    .object({ email: AttributeName, name: AttributeName, groups: AttributeName })
    .partial()
    .strict(),
  sign_requests: z.boolean(),
  allow_linking: z.boolean(),
  require_certificate_confirmation: z.boolean(),
});

export const CreateSamlProviderInput = Fields.partial({
  enabled: true,
  metadata_url: true,
  metadata_xml: true,
  attribute_mapping: true,
  sign_requests: true,
  allow_linking: true,
  require_certificate_confirmation: true,
})
  .strict()
  .refine(
    (input) => (input.metadata_url === undefined) !== (input.metadata_xml === undefined),
    "give exactly one of metadata_url and metadata_xml",
  );
export type CreateSamlProviderInput = z.input<typeof CreateSamlProviderInput>;

export const UpdateSamlProviderInput = Fields.extend({
  /** Fetch the metadata again from its URL (certificate rollover). */
  refresh_metadata: z.literal(true),
  /** Take (true) or drop (false) the certificates a refresh left pending. */
  confirm_certificates: z.boolean(),
})
  .partial()
  .strict()
  .refine(
    (input) => !(input.metadata_url !== undefined && input.metadata_xml !== undefined),
    "give at most one of metadata_url and metadata_xml",
  )
  .refine(
    (input) =>
      input.confirm_certificates === undefined ||
      (input.metadata_url === undefined && input.metadata_xml === undefined && !input.refresh_metadata),
    "confirm_certificates decides on the pending certificates: give it without new metadata",
  );
export type UpdateSamlProviderInput = z.input<typeof UpdateSamlProviderInput>;

function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ValidationFailed(formatZodIssues(parsed.error, "body"));
  return parsed.data;
}

async function loadMetadata(source: { url?: string; xml?: string }): Promise<IdpMetadata> {
  const xml = source.url ? await fetchMetadata(source.url) : source.xml!;
  return parseIdpMetadata(xml);
}

/** A domain may be served by one of the tenant's IdPs only (call inside the tenant's provider lock). */
async function checkDomainsFree(tenantId: string, domains: string[], except?: string): Promise<void> {
  for (const domain of domains) {
    const owner = await selectProviderByDomain(tenantId, domain);
    if (owner && owner.id !== except) {
      throw new AppError("SAML_DOMAIN_TAKEN", `the domain ${domain} is served by another identity provider`, {
        details: [`domains: ${domain} is served by ${owner.name} (${owner.id})`],
      });
    }
  }
}

/** SHA-256 fingerprints (`AB:CD:…`), what IdP consoles show beside a certificate. */
const fingerprints = (pems: string[]) =>
  pems.map((pem) => {
    try {
      return new X509Certificate(pem).fingerprint256;
    } catch {
      return "unparsable certificate";
    }
  });

const sameCertificates = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");

type CertificateChangeSource = "refresh" | "metadata" | "confirmation";

/**
 * The IdP's signing certificates changed (or a change is waiting): audited with both sets' fingerprints
 * and fired as `saml_provider.certificate_changed`, in the change's transaction. Whoever answers the
 * metadata URL decides what Sesame trusts; nothing of that may happen unseen.
 */
async function reportCertificateChange(
  tenantId: string,
  row: SamlProvider,
  change: { previous: string[]; next: string[]; source: CertificateChangeSource; pending: boolean },
  context: AuditContext,
): Promise<void> {
  const data = {
    idp_id: row.id,
    name: row.name,
    entity_id: row.entityId,
    source: change.source,
    pending: change.pending,
    previous_fingerprints: fingerprints(change.previous),
    new_fingerprints: fingerprints(change.next),
  };
  await recordAuditEvent(tenantId, { ...context, type: "saml.provider.certificates_changed", details: data });
  await emitWebhookEvent(tenantId, "saml_provider.certificate_changed", data);
}

const auditDetails = (row: SamlProvider) => ({
  idp_id: row.id,
  name: row.name,
  entity_id: row.entityId,
  domains: row.domains,
  enabled: row.enabled,
});

/** Adds an IdP: the metadata (fetched or given) is parsed first, so a broken one is never stored. */
export async function createSamlProvider(
  tenantId: string,
  input: unknown,
  context: AuditContext,
): Promise<SamlProvider> {
  const body = parseInput(CreateSamlProviderInput, input);
  const metadata = await loadMetadata({ url: body.metadata_url, xml: body.metadata_xml });
  return transaction(async () => {
    await lockTenantProviders(tenantId);
    await checkDomainsFree(tenantId, body.domains);
    const row = await insertProvider(tenantId, {
      name: body.name,
      enabled: body.enabled ?? true,
      domains: body.domains,
      metadataUrl: body.metadata_url ?? null,
      metadataXml: body.metadata_url ? null : body.metadata_xml!,
      ...metadata,
      attributeMapping: body.attribute_mapping ?? {},
      signRequests: body.sign_requests ?? false,
      allowLinking: body.allow_linking ?? true,
      requireCertificateConfirmation: body.require_certificate_confirmation ?? false,
    });
    await recordAuditEvent(tenantId, {
      ...context,
      type: "saml.provider.created",
      details: auditDetails(row),
    });
    return row;
  });
}

export function listSamlProviders(tenantId: string): Promise<SamlProvider[]> {
  return selectProviders(tenantId);
}

export async function getSamlProvider(tenantId: string, id: string): Promise<SamlProvider> {
  const row = await selectProvider(tenantId, id);
  if (!row) throw new AppError("SAML_PROVIDER_NOT_FOUND");
  return row;
}

/**
 * Changes an IdP. New metadata (URL or XML) or `refresh_metadata` re-reads entity id, SSO URL and
 * certificates; switching to XML forgets the URL and the other way round. Changed certificates are
 * reported ({@link reportCertificateChange}); a refresh (not metadata the operator gives) that changes them
 * while `require_certificate_confirmation` is on leaves them pending, unused, until `confirm_certificates`
 * takes (true) or drops (false) them. New metadata given explicitly is the operator's decision: taken, and
 * whatever was pending is dropped.
 */
export async function updateSamlProvider(
  tenantId: string,
  id: string,
  input: unknown,
  context: AuditContext,
): Promise<SamlProvider> {
  const body = parseInput(UpdateSamlProviderInput, input);
  const current = await getSamlProvider(tenantId, id);
  const values: Partial<SamlProviderValues> = {};
  let loaded: IdpMetadata | undefined;
  const refreshOnly = body.metadata_url === undefined && body.metadata_xml === undefined;
  if (!refreshOnly || body.refresh_metadata) {
    const url = body.metadata_xml !== undefined ? undefined : (body.metadata_url ?? current.metadataUrl);
    const xml = body.metadata_xml ?? current.metadataXml ?? undefined;
    if (!url && body.metadata_xml === undefined) {
      throw new ValidationFailed(["body.refresh_metadata: the provider has no metadata URL to fetch"]);
    }
    loaded = await loadMetadata(url ? { url } : { xml });
    // A refresh of the same URL must describe the same IdP: whoever answers that URL would otherwise
    // bring a new entity (and its keys) under the existing users' NameIDs. New metadata given explicitly
    // (another URL or XML) is the operator's decision.
    if (refreshOnly && loaded.entityId !== current.entityId) {
      throw new ValidationFailed([
        `body.refresh_metadata: the metadata now names another entity (${loaded.entityId}); give it as metadata_url or metadata_xml to take it`,
      ]);
    }
    Object.assign(values, loaded, {
      metadataUrl: url ?? null,
      metadataXml: url ? null : xml,
    });
  }
  if (body.name !== undefined) values.name = body.name;
  if (body.enabled !== undefined) values.enabled = body.enabled;
  if (body.domains !== undefined) values.domains = body.domains;
  if (body.attribute_mapping !== undefined) values.attributeMapping = body.attribute_mapping;
  if (body.sign_requests !== undefined) values.signRequests = body.sign_requests;
  if (body.allow_linking !== undefined) values.allowLinking = body.allow_linking;
  if (body.require_certificate_confirmation !== undefined) {
    values.requireCertificateConfirmation = body.require_certificate_confirmation;
  }
  return transaction(async () => {
    await lockTenantProviders(tenantId);
    if (values.domains) await checkDomainsFree(tenantId, values.domains, id);
    // Read again under the lock: the certificates decided on are the ones stored now.
    const locked = await selectProvider(tenantId, id);
    if (!locked) throw new AppError("SAML_PROVIDER_NOT_FOUND");
    let change: { previous: string[]; next: string[]; source: CertificateChangeSource } | undefined;
    let pending = false;
    if (loaded) {
      const held =
        refreshOnly && (values.requireCertificateConfirmation ?? locked.requireCertificateConfirmation);
      if (sameCertificates(loaded.certificates, locked.certificates)) {
        // The IdP went back to what is in use: nothing is waiting any more.
        values.pendingCertificates = [];
      } else if (held) {
        values.certificates = locked.certificates;
        values.pendingCertificates = loaded.certificates;
        pending = !sameCertificates(loaded.certificates, locked.pendingCertificates);
        if (pending) change = { previous: locked.certificates, next: loaded.certificates, source: "refresh" };
      } else {
        values.pendingCertificates = [];
        change = {
          previous: locked.certificates,
          next: loaded.certificates,
          source: refreshOnly ? "refresh" : "metadata",
        };
      }
    }
    if (body.confirm_certificates !== undefined) {
      if (locked.pendingCertificates.length === 0) {
        throw new ValidationFailed(["body.confirm_certificates: no certificates are pending"]);
      }
      if (body.confirm_certificates) {
        values.certificates = locked.pendingCertificates;
        change = { previous: locked.certificates, next: locked.pendingCertificates, source: "confirmation" };
      }
      values.pendingCertificates = [];
    }
    const row = await updateProviderRow(tenantId, id, values);
    if (!row) throw new AppError("SAML_PROVIDER_NOT_FOUND");
    await recordAuditEvent(tenantId, {
      ...context,
      type: "saml.provider.updated",
      details: { ...auditDetails(row), changed: Object.keys(body) },
    });
    if (change) await reportCertificateChange(tenantId, row, { ...change, pending }, context);
    if (body.confirm_certificates === false) {
      await recordAuditEvent(tenantId, {
        ...context,
        type: "saml.provider.certificates_rejected",
        details: {
          idp_id: row.id,
          entity_id: row.entityId,
          rejected_fingerprints: fingerprints(locked.pendingCertificates),
        },
      });
    }
    return row;
  });
}

/** Removes an IdP; its users keep their accounts (their SAML identities stay, unused). */
export async function deleteSamlProvider(tenantId: string, id: string, context: AuditContext): Promise<void> {
  await transaction(async () => {
    const row = await deleteProviderRow(tenantId, id);
    if (!row) throw new AppError("SAML_PROVIDER_NOT_FOUND");
    await recordAuditEvent(tenantId, {
      ...context,
      type: "saml.provider.deleted",
      details: auditDetails(row),
    });
  });
}

/** The enabled IdP serving `domain`, if any. */
export async function findEnabledProviderForDomain(
  tenantId: string,
  domain: string,
): Promise<SamlProvider | undefined> {
  const row = await selectProviderByDomain(tenantId, domain.trim().toLowerCase());
  return row?.enabled ? row : undefined;
}
