import * as oidc from "openid-client";
import { AppError } from "@/lib/errors";
import type { ProviderClient } from "./client";

export interface ProviderUser {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  /** Profile claims kept on the identity (never tokens). */
  claims: Record<string, unknown>;
}

const PROFILE_CLAIMS = [
  "sub",
  "name",
  "given_name",
  "family_name",
  "picture",
  "email",
  "email_verified",
  "locale",
];

const fail = (detail: string, cause?: unknown) =>
  new AppError("THIRD_PARTY_PROVIDER_ERROR", undefined, { details: [detail], cause });

/** `a.b.c` of an object. */
function pick(source: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((value, key) => {
    if (value && typeof value === "object" && Object.hasOwn(value, key))
      return (value as Record<string, unknown>)[key];
    return undefined;
  }, source);
}

/** Providers write `true`, some (Apple) `"true"`. */
const isTrue = (value: unknown) => value === true || value === "true";

const text = (value: unknown) =>
  typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : null;

async function getJson(client: ProviderClient, accessToken: string, url: string): Promise<unknown> {
  let response: Response;
  try {
    response = await oidc.fetchProtectedResource(
      client.config,
      accessToken,
      new URL(url),
      "GET",
      undefined,
      new Headers({ accept: "application/json" }),
    );
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw fail(`user info request failed: ${(error as Error).message}`, error);
  }
  if (!response.ok) throw fail(`user info answered ${response.status}`);
  try {
    return await response.json();
  } catch (error) {
    throw fail("user info is not JSON", error);
  }
}

/**
 * Who signed in. OIDC: the verified ID token's claims (openid-client checked issuer, audience, signature,
 * expiry and nonce), completed from the user-info endpoint when the token lacks the address. OAuth 2.0:
 * the user-info document through the kind's mapping; GitHub's primary verified address from /user/emails.
 */
export async function userInfoOf(
  client: ProviderClient,
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
): Promise<ProviderUser> {
  if (client.definition.protocol === "oidc") {
    const idToken = tokens.claims();
    if (!idToken) throw fail("no ID token");
    let claims: Record<string, unknown> = { ...idToken };
    if (!claims.email && client.config.serverMetadata().userinfo_endpoint) {
      const info = await oidc
        .fetchUserInfo(client.config, tokens.access_token, idToken.sub)
        .catch((error: unknown) => {
          throw fail("user info request failed", error);
        });
      claims = { ...info, ...claims, email: info.email, email_verified: info.email_verified };
    }
    return {
      subject: idToken.sub,
      email: text(claims.email),
      emailVerified: isTrue(claims.email_verified),
      claims: Object.fromEntries(
        PROFILE_CLAIMS.filter((key) => claims[key] !== undefined).map((key) => [key, claims[key]]),
      ),
    };
  }
  const definition = client.definition;
  const mapping = client.options.mapping ??
    definition.mapping ?? { sub: "sub", email: "email", name: "name" };
  const userinfoEndpoint = client.options.userinfoEndpoint ?? definition.userinfoEndpoint;
  if (!userinfoEndpoint) throw fail("the provider has no user-info endpoint");
  const document = await getJson(client, tokens.access_token, userinfoEndpoint);
  const subject = text(pick(document, mapping.sub));
  if (!subject) throw fail(`user info has no ${mapping.sub}`);
  let email = text(pick(document, mapping.email));
  let emailVerified = mapping.emailVerified
    ? isTrue(pick(document, mapping.emailVerified))
    : Boolean(client.options.emailsVerified ?? definition.emailsVerified);
  const emailsEndpoint = client.options.emailsEndpoint ?? definition.emailsEndpoint;
  if (emailsEndpoint) {
    // GitHub: the profile's address may be absent or unverified; the list says which is primary and verified.
    const list = await getJson(client, tokens.access_token, emailsEndpoint);
    const entries = Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
    const primary = entries.find((entry) => entry.primary === true && entry.verified === true);
    const verified = primary ?? entries.find((entry) => entry.verified === true);
    if (verified && text(verified.email)) {
      email = text(verified.email);
      emailVerified = true;
    } else {
      // No verified address: the primary one, unverified (never linked to an existing user).
      const primaryAny = entries.find((entry) => entry.primary === true) ?? entries[0];
      email = text(primaryAny?.email) ?? email;
      emailVerified = false;
    }
  }
  const name = text(pick(document, mapping.name));
  return {
    subject,
    email,
    emailVerified,
    claims: {
      sub: subject,
      ...(name ? { name } : {}),
      ...(email ? { email, email_verified: emailVerified } : {}),
    },
  };
}
