import { z } from "zod";

/** The kinds of provider a tenant can configure: eight built-ins and two custom shapes. */
export const PROVIDER_KINDS = [
  "google",
  "github",
  "apple",
  "microsoft",
  "discord",
  "linkedin",
  "gitlab",
  "facebook",
  "oidc",
  "oauth2",
] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];
export const BUILT_IN_KINDS = PROVIDER_KINDS.filter((kind) => kind !== "oidc" && kind !== "oauth2");

/** Which user-info field holds each value (custom OAuth 2.0; dotted paths reach nested fields). */
export const UserInfoMapping = z.object({
  sub: z.string().min(1).max(200).default("sub"),
  email: z.string().min(1).max(200).default("email"),
  emailVerified: z.string().min(1).max(200).optional(),
  name: z.string().min(1).max(200).default("name"),
});
export type UserInfoMapping = z.output<typeof UserInfoMapping>;

const url = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2048);

/**
 * Kind-specific settings kept in `third_party_providers.options`. Built-ins take an `issuer` (OIDC kinds)
 * or endpoint overrides (OAuth 2.0 kinds) in place of their real ones, so a test or a self-hosted
 * GitLab can stand in.
 */
export const ProviderOptions = z.object({
  /** OIDC: the issuer whose discovery document is read (custom `oidc`: required). */
  issuer: url.optional(),
  /** OAuth 2.0: endpoints (custom `oauth2`: authorization, token and user-info required). */
  authorizationEndpoint: url.optional(),
  tokenEndpoint: url.optional(),
  userinfoEndpoint: url.optional(),
  /** GitHub: the list of the user's addresses (`/user/emails`). */
  emailsEndpoint: url.optional(),
  mapping: UserInfoMapping.optional(),
  /** Custom `oauth2`: the provider vouches for every address it returns (no per-address flag). */
  emailsVerified: z.boolean().optional(),
  /** Microsoft: the directory (`common`, `organizations`, `consumers` or a tenant id). */
  directory: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,100}$/)
    .optional(),
  /** Apple: the team id and key id of the Sign in with Apple key; its private key is sealed apart. */
  teamId: z.string().min(1).max(100).optional(),
  keyId: z.string().min(1).max(100).optional(),
  privateKeySealed: z.string().optional(),
});
export type ProviderOptions = z.output<typeof ProviderOptions>;

export type Protocol = "oidc" | "oauth2";

export interface KindDefinition {
  protocol: Protocol;
  displayName: string;
  scopes: string[];
  /** OIDC: the real issuer (`{directory}` is replaced for Microsoft). */
  issuer?: string;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userinfoEndpoint?: string;
  emailsEndpoint?: string;
  mapping?: UserInfoMapping;
  /** The provider only returns confirmed addresses (no per-address flag). */
  emailsVerified?: boolean;
  /** The provider answers the callback with a cross-site POST (`response_mode=form_post`). */
  formPost?: boolean;
}

/** What each kind is, at the provider (endpoints, default scopes): from each provider's documentation. */
export const KINDS: Record<ProviderKind, KindDefinition> = {
  google: {
    protocol: "oidc",
    displayName: "Google",
    issuer: "https://accounts.google.com",
    scopes: ["openid", "email", "profile"],
  },
  apple: {
    protocol: "oidc",
    displayName: "Apple",
    issuer: "https://appleid.apple.com",
    scopes: ["openid", "email", "name"],
    formPost: true,
  },
  microsoft: {
    protocol: "oidc",
    displayName: "Microsoft",
    issuer: "https://login.microsoftonline.com/{directory}/v2.0",
    scopes: ["openid", "email", "profile"],
  },
  gitlab: {
    protocol: "oidc",
    displayName: "GitLab",
    issuer: "https://gitlab.com",
    scopes: ["openid", "email", "profile"],
  },
  linkedin: {
    protocol: "oidc",
    displayName: "LinkedIn",
    issuer: "https://www.linkedin.com/oauth",
    scopes: ["openid", "email", "profile"],
  },
  github: {
    protocol: "oauth2",
    displayName: "GitHub",
    authorizationEndpoint: "https://github.com/login/oauth/authorize",
    tokenEndpoint: "https://github.com/login/oauth/access_token",
    userinfoEndpoint: "https://api.github.com/user",
    emailsEndpoint: "https://api.github.com/user/emails",
    scopes: ["read:user", "user:email"],
    mapping: { sub: "id", email: "email", name: "name" },
  },
  discord: {
    protocol: "oauth2",
    displayName: "Discord",
    authorizationEndpoint: "https://discord.com/oauth2/authorize",
    tokenEndpoint: "https://discord.com/api/oauth2/token",
    userinfoEndpoint: "https://discord.com/api/users/@me",
    scopes: ["identify", "email"],
    mapping: { sub: "id", email: "email", emailVerified: "verified", name: "global_name" },
  },
  facebook: {
    protocol: "oauth2",
    displayName: "Facebook",
    authorizationEndpoint: "https://www.facebook.com/v19.0/dialog/oauth",
    tokenEndpoint: "https://graph.facebook.com/v19.0/oauth/access_token",
    userinfoEndpoint: "https://graph.facebook.com/v19.0/me?fields=id,name,email",
    scopes: ["email", "public_profile"],
    mapping: { sub: "id", email: "email", name: "name" },
    // The Graph API returns only a confirmed address.
    emailsVerified: true,
  },
  oidc: { protocol: "oidc", displayName: "OpenID Connect", scopes: ["openid", "email", "profile"] },
  oauth2: { protocol: "oauth2", displayName: "OAuth 2.0", scopes: [] },
};
