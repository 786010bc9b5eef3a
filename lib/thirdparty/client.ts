import { importPKCS8, SignJWT } from "jose";
import * as oidc from "openid-client";
import { unseal } from "@/lib/crypto";
import type { ThirdPartyProviderRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { getConfig } from "@/lib/config";
import { guardedFetch } from "./fetch";
import { KINDS, ProviderOptions, type KindDefinition, type ProviderKind } from "./kinds";
import { APPLE_KEY_PURPOSE, SECRET_PURPOSE, sealContext } from "./providers";

/** A provider ready to talk to: openid-client's configuration plus what Sesame needs beside it. */
export interface ProviderClient {
  row: ThirdPartyProviderRow;
  kind: ProviderKind;
  definition: KindDefinition;
  options: ProviderOptions;
  config: oidc.Configuration;
  scopes: string[];
  redirectUri: string;
}

/** The redirect URL to register at every provider. */
export function callbackUrl(tenantId: string): string {
  return `${getConfig().baseUrl}/t/${tenantId}/thirdparty/callback`;
}

const providerError = (detail: string, cause?: unknown) =>
  new AppError("THIRD_PARTY_PROVIDER_ERROR", undefined, { details: [detail], cause });

/**
 * Apple's client secret is a JWT the client signs itself (ES256 with the Sign in with Apple key), valid
 * for a few minutes: minted for each token request, so nothing long-lived is kept but the sealed key.
 */
export async function appleClientSecret(
  row: ThirdPartyProviderRow,
  options: ProviderOptions,
  audience: string,
) {
  if (!options.privateKeySealed || !options.teamId || !options.keyId) {
    throw providerError("the Apple provider has no key");
  }
  const pem = unseal(options.privateKeySealed, APPLE_KEY_PURPOSE, sealContext(row.tenantId, row.slug));
  const key = await importPKCS8(pem, "ES256");
  return new SignJWT({})
    .setProtectedHeader({ alg: "ES256", kid: options.keyId })
    .setIssuer(options.teamId)
    .setSubject(row.clientId)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(key);
}

/**
 * Microsoft's directory in the issuer: personal accounts (`consumers`) are the directory
 * 9188040d-6c67-4c5b-b112-36a304b66dad, which is what their ID tokens name as issuer.
 */
function microsoftDirectory(directory: string | undefined): string {
  return directory === "consumers" ? "9188040d-6c67-4c5b-b112-36a304b66dad" : (directory ?? "common");
}

const insecure = (...urls: (string | undefined)[]) => urls.some((url) => url?.startsWith("http:"));

/**
 * Issuers' discovery documents, kept for 10 minutes in this process: without it every start (anyone may
 * start one) would make Sesame fetch the document again. A cache of the provider's public metadata, not
 * of Sesame's state: each instance keeps its own, and a provider's change shows within the lifetime.
 */
const DISCOVERY_TTL_MS = 10 * 60_000;
const DISCOVERY_ENTRIES = 500;
const discovered = new Map<string, { metadata: oidc.ServerMetadata; until: number }>();

async function discover(issuer: string): Promise<oidc.ServerMetadata> {
  const hit = discovered.get(issuer);
  if (hit && hit.until > Date.now()) return hit.metadata;
  let metadata: oidc.ServerMetadata;
  try {
    const config = await oidc.discovery(new URL(issuer), "discovery", undefined, undefined, {
      [oidc.customFetch]: guardedFetch,
      execute: insecure(issuer) ? [oidc.allowInsecureRequests] : [],
      timeout: 10,
    });
    metadata = { ...config.serverMetadata() };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw providerError(`discovery of ${issuer} failed`, error);
  }
  discovered.delete(issuer);
  if (discovered.size >= DISCOVERY_ENTRIES) discovered.delete(discovered.keys().next().value!);
  discovered.set(issuer, { metadata, until: Date.now() + DISCOVERY_TTL_MS });
  return metadata;
}

/**
 * Issuers' JWKS, kept per instance by their URL, like the discovery documents: openid-client keeps a JWKS
 * only on its Configuration object, which is built for each callback, so without this every callback
 * fetched the keys again. The library (oauth4webapi) decides what the kept set is good for: 5 minutes, and
 * an ID token under an unknown `kid` refetches the set only when it is a minute old or more (then once),
 * so nobody can make Sesame fetch on every request. {@link keepJwks} stores what the library ended with,
 * the refetch's time included, so that limit holds across callbacks.
 */
const JWKS_ENTRIES = 500;
const jwksSets = new Map<string, oidc.ExportedJWKSCache>();

function jwksUriOf(config: oidc.Configuration): string | undefined {
  return config.serverMetadata().jwks_uri;
}

/** Hands the kept JWKS of the configuration's issuer to openid-client (when there is one). */
function restoreJwks(config: oidc.Configuration): void {
  const uri = jwksUriOf(config);
  const kept = uri ? jwksSets.get(uri) : undefined;
  if (kept) oidc.setJwksCache(config, kept);
}

/** Keeps the JWKS openid-client holds after a request (fetched, refetched, or the one it was given). */
export function keepJwks(config: oidc.Configuration): void {
  const uri = jwksUriOf(config);
  if (!uri) return;
  const current = oidc.getJwksCache(config);
  if (!current) return;
  jwksSets.delete(uri);
  if (jwksSets.size >= JWKS_ENTRIES) jwksSets.delete(jwksSets.keys().next().value!);
  jwksSets.set(uri, current);
}

/** Builds the client for a provider row: OIDC kinds read the issuer's discovery document (SSRF-guarded). */
export async function providerClient(row: ThirdPartyProviderRow): Promise<ProviderClient> {
  const kind = row.kind as ProviderKind;
  const definition = KINDS[kind];
  const options = ProviderOptions.parse(row.options);
  const scopes = row.scopes.length > 0 ? row.scopes : definition.scopes;
  const redirectUri = callbackUrl(row.tenantId);
  let config: oidc.Configuration;
  if (definition.protocol === "oidc") {
    const issuer = (options.issuer ?? definition.issuer ?? "").replace(
      "{directory}",
      microsoftDirectory(options.directory),
    );
    if (!issuer) throw providerError("the provider has no issuer");
    const secret =
      kind === "apple"
        ? await appleClientSecret(row, options, issuer)
        : row.clientSecretSealed
          ? unseal(row.clientSecretSealed, SECRET_PURPOSE, sealContext(row.tenantId, row.slug))
          : undefined;
    config = new oidc.Configuration(await discover(issuer), row.clientId, {
      client_secret: secret,
      redirect_uris: [redirectUri],
    });
    config[oidc.customFetch] = guardedFetch;
    config.timeout = 10;
    // openid-client trusts TLS for an ID token from the token endpoint unless told otherwise: the
    // signature is checked against the provider's JWKS as well (non-repudiation checks).
    oidc.enableNonRepudiationChecks(config);
    restoreJwks(config);
    if (insecure(issuer)) oidc.allowInsecureRequests(config);
  } else {
    const authorizationEndpoint = options.authorizationEndpoint ?? definition.authorizationEndpoint;
    const tokenEndpoint = options.tokenEndpoint ?? definition.tokenEndpoint;
    const userinfoEndpoint = options.userinfoEndpoint ?? definition.userinfoEndpoint;
    if (!authorizationEndpoint || !tokenEndpoint) throw providerError("the provider has no endpoints");
    const secret = row.clientSecretSealed
      ? unseal(row.clientSecretSealed, SECRET_PURPOSE, sealContext(row.tenantId, row.slug))
      : undefined;
    config = new oidc.Configuration(
      {
        // OAuth 2.0 providers without metadata: the authorization server's origin names it.
        issuer: new URL(authorizationEndpoint).origin,
        authorization_endpoint: authorizationEndpoint,
        token_endpoint: tokenEndpoint,
        ...(userinfoEndpoint ? { userinfo_endpoint: userinfoEndpoint } : {}),
      },
      row.clientId,
      { client_secret: secret, redirect_uris: [redirectUri] },
    );
    config[oidc.customFetch] = guardedFetch;
    config.timeout = 10;
    const emailsEndpoint = options.emailsEndpoint ?? definition.emailsEndpoint;
    if (insecure(authorizationEndpoint, tokenEndpoint, userinfoEndpoint, emailsEndpoint)) {
      oidc.allowInsecureRequests(config);
    }
  }
  return { row, kind, definition, options, config, scopes, redirectUri };
}
