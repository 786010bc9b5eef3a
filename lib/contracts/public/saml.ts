import { z } from "zod";
import type { SamlIdentityProviderRow } from "@/lib/db/schema";
import { defineContract } from "@/lib/contracts/contract";
import { platformErrors } from "../schemas";
import { jsonResponse, tenantParams } from "./common";

/** SAML endpoints are browser navigations and IdP posts: no CORS. */
const samlRoute = {
  surface: "public",
  loadsTenant: true,
  params: tenantParams,
  tags: ["SAML"] as string[],
  auth: { kind: "none" },
} as const;

const redirectResponse = (description: string) => ({
  description,
  headers: z.object({ Location: z.string().meta({ description: "Where the browser goes next" }) }),
});

export const samlMetadata = defineContract({
  ...samlRoute,
  method: "GET",
  path: "/t/{tenantId}/saml/metadata",
  operationId: "samlMetadata",
  summary: "SAML service provider metadata",
  description:
    "The tenant's SP metadata for its identity providers: entity id (this URL), the HTTP-POST assertion " +
    "consumer service `{tenant_url}/saml/acs`, `WantAssertionsSigned` and the signing certificate " +
    "(made on first use).",
  responses: {
    "200": {
      description: "The metadata",
      content: { "application/samlmetadata+xml": { schema: z.string() } },
    },
    ...platformErrors(400, 404, 500),
  },
});

export const samlSso = defineContract({
  ...samlRoute,
  method: "GET",
  path: "/t/{tenantId}/saml/sso",
  operationId: "samlSso",
  summary: "Start a SAML sign-in",
  description:
    "Redirects the browser to the identity provider serving `domain` (or the IdP `idp_id`) with an " +
    "AuthnRequest (HTTP-Redirect binding, signed when the IdP is set to `sign_requests`). `redirect_to` " +
    "must be on one of the tenant's origins; the IdP's answer comes back to `POST /saml/acs`, which " +
    "returns the browser there with `?hanko_token=…`.",
  rateLimit: "saml",
  query: z
    .object({
      domain: z.string().trim().toLowerCase().min(1).max(253).optional(),
      idp_id: z.uuid("must be a UUID").optional(),
      redirect_to: z.string().min(1, "is required").max(2048),
    })
    .refine((query) => (query.domain === undefined) !== (query.idp_id === undefined), {
      message: "give exactly one of domain and idp_id",
    }),
  responses: {
    "302": {
      ...redirectResponse("To the identity provider"),
      headers: z.object({
        Location: z.string().meta({ description: "The IdP's SSO URL with the AuthnRequest" }),
        "Set-Cookie": z.string().meta({
          description: "`sesame_saml`: binds the sign-in to this browser (HttpOnly, Secure, SameSite=None)",
        }),
      }),
    },
    ...platformErrors(400, 404, 500),
  },
});

export const samlAcs = defineContract({
  ...samlRoute,
  method: "POST",
  path: "/t/{tenantId}/saml/acs",
  operationId: "samlAcs",
  summary: "Assertion consumer service",
  description:
    "The identity provider's HTTP-POST answer (form fields `SAMLResponse`, `RelayState`). The assertion " +
    "must be signed by the IdP's certificate, for this tenant's entity id and ACS URL, in time, answering " +
    "a pending request of this tenant (once) started by this browser (its `sesame_saml` cookie), and not " +
    "seen before. On success the browser goes to the " +
    "request's `redirect_to` with `?hanko_token=…` (exchanged by the token_exchange flow or " +
    "`POST /token`); a failure after the request is known goes there with Hanko's `error` and " +
    "`error_description`, any other failure is a JSON error.",
  rateLimit: "saml",
  responses: {
    "302": redirectResponse(
      "Back to redirect_to with hanko_token, or with error and error_description after a failure",
    ),
    ...platformErrors(400, 404, 413, 415, 500),
  },
});

export const SamlProviderConfig = z
  .object({
    enabled: z.boolean(),
    name: z.string(),
    domain: z.string(),
    metadata_url: z.string(),
    skip_email_verification: z.boolean(),
    attribute_map: z.record(z.string(), z.string()),
  })
  .meta({ id: "SamlProviderConfig", description: "Hanko's identity provider configuration" });

export const samlProviderWire = (
  idp: SamlIdentityProviderRow,
  domain: string,
): z.input<typeof SamlProviderConfig> => ({
  enabled: idp.enabled,
  name: idp.name,
  domain,
  metadata_url: idp.metadataUrl ?? "",
  skip_email_verification: false,
  attribute_map: Object.fromEntries(
    Object.entries(idp.attributeMapping as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  ),
});

export const samlProvider = defineContract({
  ...samlRoute,
  cors: "tenant-origins",
  method: "GET",
  path: "/t/{tenantId}/saml/provider",
  operationId: "samlProvider",
  summary: "The identity provider of an email domain",
  description:
    "Hanko's answer: the IdP's configuration, 404 without a body when no enabled IdP serves the domain.",
  deprecated: { successor: "/t/{tenantId}/login" },
  query: z.object({ domain: z.string().trim().toLowerCase().min(1, "is required").max(253) }),
  responses: {
    "200": jsonResponse("The identity provider", SamlProviderConfig),
    ...platformErrors(400, 404, 500),
  },
});
