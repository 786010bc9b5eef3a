import type {
  AuditLogSettings,
  BrandingSettings,
  PlatformSettings,
  SettingsSections,
  UafSettings,
  WebauthnPolicy,
} from "./schemas";

/*
 * The default of each settings section. Client-safe: no imports but types, so the hosted pages (client
 * components included) read them from here. They are also the columns' SQL defaults
 * (lib/db/schema/tenants.ts): changing a value or the order of keys here needs a migration.
 */

/** Hanko's defaults: passkeys are discoverable and user-verifying; MFA keys are roaming security keys. */
export const DEFAULT_PASSKEY_POLICY: WebauthnPolicy = {
  userVerification: "required",
  attestation: "direct",
  residentKey: "required",
  attachment: null,
};
export const DEFAULT_MFA_POLICY: WebauthnPolicy = {
  userVerification: "preferred",
  attestation: "direct",
  residentKey: "discouraged",
  attachment: "cross-platform",
};

export const DEFAULT_UAF_SETTINGS: UafSettings = {
  appId: "",
  facetIds: [],
  trustedRoots: [],
  allowSurrogate: true,
  acceptedAaids: [],
  allowTestAuthenticators: false,
};

export const DEFAULT_PLATFORM_SETTINGS: PlatformSettings = {
  apiVersion: 2,
  session: {
    limit: 5,
    idleTimeoutSeconds: 0,
    crossDomain: false,
    cookie: { name: "hanko", secure: true, sameSite: "strict", domain: null, retention: "persistent" },
  },
  password: { enabled: false, minLength: 8 },
  emails: { requireVerification: true, maxPerUser: 5 },
  account: { allowSignup: true, allowDeletion: false },
  passkeys: { enabled: true, optional: false },
  passcodes: { enabled: true },
  username: { enabled: false, required: false, minLength: 3, maxLength: 32 },
  mfa: { enabled: true, totp: true, securityKeys: true },
  rateLimits: {
    passcode: { points: 10, durationSeconds: 60 },
    password: { points: 10, durationSeconds: 60 },
  },
};

export const DEFAULT_BRANDING: BrandingSettings = {
  displayName: null,
  primaryColor: "#4f46e5",
  backgroundColor: "#ffffff",
  textColor: "#0f172a",
  logoUrl: null,
};

/** Audit events are kept 90 days (Hanko keeps 30). */
export const DEFAULT_AUDIT_LOG_SETTINGS: AuditLogSettings = { retentionDays: 90 };

/** All sections' defaults, by column. */
export const DEFAULT_SETTINGS: SettingsSections = {
  passkeyPolicy: DEFAULT_PASSKEY_POLICY,
  mfaPolicy: DEFAULT_MFA_POLICY,
  uaf: DEFAULT_UAF_SETTINGS,
  platform: DEFAULT_PLATFORM_SETTINGS,
  branding: DEFAULT_BRANDING,
  auditLog: DEFAULT_AUDIT_LOG_SETTINGS,
};
