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
async function appleClientSecret(row: ThirdPartyProviderRow, options: ProviderOptions, audience: string) {
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

const insecure = (...urls: (string | undefined)[]) => urls.some((url) => url?.startsWith("http:"));

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
      options.directory ?? "common",
    );
    if (!issuer) throw providerError("the provider has no issuer");
    const secret =
      kind === "apple"
        ? await appleClientSecret(row, options, issuer)
        : row.clientSecretSealed
          ? unseal(row.clientSecretSealed, SECRET_PURPOSE, sealContext(row.tenantId, row.slug))
          : undefined;
    try {
      config = await oidc.discovery(
        new URL(issuer),
        row.clientId,
        { client_secret: secret, redirect_uris: [redirectUri] },
        undefined,
        {
          [oidc.customFetch]: guardedFetch,
          // openid-client trusts TLS for an ID token from the token endpoint unless told otherwise: the
          // signature is checked against the provider's JWKS as well (non-repudiation checks).
          execute: [
            oidc.enableNonRepudiationChecks,
            ...(insecure(issuer) ? [oidc.allowInsecureRequests] : []),
          ],
          timeout: 10,
        },
      );
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw providerError(`discovery of ${issuer} failed`, error);
    }
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
