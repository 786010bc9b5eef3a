import { X509Certificate } from "node:crypto";
import { z } from "zod";
import {
  ATTACHMENT,
  ATTESTATION,
  RESIDENT_KEY,
  SIGNING_ALGORITHMS,
  USER_VERIFICATION,
} from "@/lib/db/schema";

const HOSTNAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;

export const RpId = z
  .string()
  .trim()
  .toLowerCase()
  .regex(HOSTNAME, "must be a host name without scheme or port, such as example.com or localhost");

/** An exact web origin: scheme, host and optional port, nothing else. */
export const Origin = z
  .url({ protocol: /^https?$/, error: "must be an http(s) origin such as https://example.com" })
  .refine((value) => new URL(value).origin === value.replace(/\/$/, ""), {
    error: "must be an origin only (scheme://host[:port]), without path, query or fragment",
  })
  .transform((value) => new URL(value).origin);

const seconds = (min: number, max: number) =>
  z.number().int().min(min, `must be at least ${min} seconds`).max(max, `must be at most ${max} seconds`);

export const WebauthnPolicy = z.object({
  userVerification: z.enum(USER_VERIFICATION),
  attestation: z.enum(ATTESTATION),
  residentKey: z.enum(RESIDENT_KEY),
  attachment: z.enum(ATTACHMENT).nullable(),
});

const AAID = z
  .string()
  .regex(/^[0-9A-Fa-f]{4}#[0-9A-Fa-f]{4}$/, "must be an AAID such as 006F#0001 (VVVV#MMMM in hex)")
  .transform((value) => value.toUpperCase());

/** A UAF FacetID: a web origin, `android:apk-key-hash:<base64>` or `ios:bundle-id:<id>`. */
const FacetId = z
  .string()
  .trim()
  .max(512)
  .refine(
    (value) =>
      /^android:apk-key-hash:[A-Za-z0-9+/_=-]{1,128}$/.test(value) ||
      /^ios:bundle-id:[A-Za-z0-9.-]{1,255}$/.test(value) ||
      Origin.safeParse(value).success,
    "must be an origin, android:apk-key-hash:… or ios:bundle-id:…",
  );

const PemCertificate = z
  .string()
  .max(16_384)
  .regex(/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/, "must be a PEM certificate")
  .refine((pem) => {
    try {
      const certificate = new X509Certificate(pem);
      return certificate.ca || certificate.checkIssued(certificate);
    } catch {
      return false;
    }
  }, "must be a readable CA or self-signed certificate");

export const UafSettings = z.object({
  appId: z.union([
    z.literal(""),
    z.url({ protocol: /^https$/, error: "must be an https URL or empty" }).max(512),
  ]),
  facetIds: z.array(FacetId).max(50),
  trustedRoots: z.array(PemCertificate).max(20),
  allowSurrogate: z.boolean(),
  acceptedAaids: z.array(AAID).max(100),
  allowTestAuthenticators: z.boolean(),
});

const CookieName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 letters, digits, - or _");

export const PlatformSettings = z.object({
  apiVersion: z.union([z.literal(2), z.literal(3)]),
  session: z.object({
    limit: z.number().int().min(1).max(100),
    idleTimeoutSeconds: z.number().int().min(0).max(31_536_000),
    crossDomain: z.boolean(),
    cookie: z.object({
      name: CookieName,
      secure: z.boolean(),
      sameSite: z.enum(["strict", "lax", "none"]),
      domain: z
        .string()
        .regex(/^\.?[a-z0-9.-]{1,253}$/i, "must be a domain such as .example.com")
        .nullable(),
      retention: z.enum(["persistent", "session"]),
    }),
  }),
  password: z.object({ enabled: z.boolean(), minLength: z.number().int().min(8).max(128) }),
  emails: z.object({ requireVerification: z.boolean(), maxPerUser: z.number().int().min(1).max(100) }),
  account: z.object({ allowSignup: z.boolean(), allowDeletion: z.boolean() }),
  passkeys: z.object({ enabled: z.boolean(), optional: z.boolean() }),
  passcodes: z.object({ enabled: z.boolean() }),
  username: z
    .object({
      enabled: z.boolean(),
      required: z.boolean(),
      minLength: z.number().int().min(1).max(64),
      maxLength: z.number().int().min(1).max(64),
    })
    .refine((u) => u.minLength <= u.maxLength, "minLength must not exceed maxLength"),
  mfa: z.object({ enabled: z.boolean(), totp: z.boolean(), securityKeys: z.boolean() }),
  rateLimits: z.record(
    z.string().regex(/^[a-z_]{1,32}$/),
    z.object({
      points: z.number().int().min(1).max(100_000),
      durationSeconds: z.number().int().min(1).max(86_400),
    }),
  ),
});

/** A patch of the platform settings: every section and field optional, merged into the current ones. */
export const PlatformSettingsPatch = z.object({
  apiVersion: PlatformSettings.shape.apiVersion.optional(),
  session: PlatformSettings.shape.session
    .extend({ cookie: PlatformSettings.shape.session.shape.cookie.partial() })
    .partial()
    .optional(),
  password: PlatformSettings.shape.password.partial().optional(),
  emails: PlatformSettings.shape.emails.partial().optional(),
  account: PlatformSettings.shape.account.partial().optional(),
  passkeys: PlatformSettings.shape.passkeys.partial().optional(),
  passcodes: PlatformSettings.shape.passcodes.partial().optional(),
  username: z
    .object({
      enabled: z.boolean(),
      required: z.boolean(),
      minLength: z.number().int().min(1).max(64),
      maxLength: z.number().int().min(1).max(64),
    })
    .partial()
    .optional(),
  mfa: PlatformSettings.shape.mfa.partial().optional(),
  rateLimits: PlatformSettings.shape.rateLimits.optional(),
});

/** `#rrggbb`, stored in lower case. */
export const HexColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour in hex notation: # and six hex digits, such as #4f46e5")
  .transform((value) => value.toLowerCase());

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A logo the hosted pages load: https, or http on localhost only (development). */
export const LogoUrl = z
  .string()
  .trim()
  .max(2048, "must be at most 2048 characters")
  .refine((value) => {
    try {
      const url = new URL(value);
      if (url.username || url.password) return false;
      return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
    } catch {
      return false;
    }
  }, "must be an https URL (http only on localhost), without user name or password")
  .transform((value) => new URL(value).href);

/** How the hosted pages look; a patch merges field by field into the tenant's (or the default) branding. */
export const BrandingSettings = z.object({
  displayName: z.string().trim().min(1).max(100).nullable(),
  primaryColor: HexColor,
  backgroundColor: HexColor,
  textColor: HexColor,
  logoUrl: LogoUrl.nullable(),
});

/** Settings a tenant may change; bounds mirror the CHECK constraints in lib/db/schema/tenants.ts. */
export const TenantSettings = z.object({
  name: z.string().trim().min(1).max(100),
  rpId: RpId,
  rpName: z.string().trim().min(1).max(100),
  origins: z.array(Origin).max(50),
  challengeTtlSeconds: seconds(10, 3600),
  requestTtlSeconds: seconds(10, 600),
  sessionLifetimeSeconds: seconds(60, 31_536_000),
  passcodeTtlSeconds: seconds(60, 600),
  tokenLifetimeSeconds: seconds(10, 86_400),
  signingAlgorithm: z.enum(SIGNING_ALGORITHMS),
  passkeyPolicy: WebauthnPolicy,
  mfaPolicy: WebauthnPolicy,
  uaf: UafSettings,
});

/** Policies are merged field by field into the current (or default) policy. */
const PolicyPatches = {
  passkeyPolicy: WebauthnPolicy.partial().optional(),
  mfaPolicy: WebauthnPolicy.partial().optional(),
  uaf: UafSettings.partial().optional(),
  platform: PlatformSettingsPatch.optional(),
  branding: BrandingSettings.partial().optional(),
};

export const CreateTenantInput = TenantSettings.partial().extend(PolicyPatches).required({ name: true });
export type CreateTenantInput = z.input<typeof CreateTenantInput>;

export const UpdateTenantInput = TenantSettings.partial().extend(PolicyPatches);
export type UpdateTenantInput = z.input<typeof UpdateTenantInput>;
