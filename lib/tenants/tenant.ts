import { ValidationFailed } from "@/lib/errors";
import { DEFAULT_BRANDING, DEFAULT_PLATFORM_SETTINGS, DEFAULT_UAF_SETTINGS } from "@/lib/db/schema";
import type {
  BrandingSettings,
  PlatformSettings,
  SigningAlgorithm,
  TenantRow,
  UafSettings,
  WebauthnPolicy,
} from "@/lib/db/schema";

/** A tenant as the domain sees it. */
export interface Tenant {
  id: string;
  name: string;
  rpId: string;
  rpName: string;
  origins: string[];
  challengeTtlSeconds: number;
  requestTtlSeconds: number;
  sessionLifetimeSeconds: number;
  passcodeTtlSeconds: number;
  tokenLifetimeSeconds: number;
  signingAlgorithm: SigningAlgorithm;
  passkeyPolicy: WebauthnPolicy;
  mfaPolicy: WebauthnPolicy;
  uaf: UafSettings;
  platform: PlatformSettings;
  branding: BrandingSettings;
  createdAt: Date;
  updatedAt: Date;
}

export function toTenant(row: TenantRow): Tenant {
  // Settings added later (jsonb) are completed with their defaults.
  return {
    ...row,
    uaf: { ...DEFAULT_UAF_SETTINGS, ...row.uaf },
    platform: mergePlatform(row.platform),
    branding: patchBranding(DEFAULT_BRANDING, row.branding),
  };
}

/** Applies a validated branding patch field by field (`null` clears the display name or logo). */
export function patchBranding(
  current: BrandingSettings,
  patch: { [K in keyof BrandingSettings]?: BrandingSettings[K] | undefined } | null | undefined,
): BrandingSettings {
  if (!patch) return current;
  const defined = Object.entries(patch).filter(([, value]) => value !== undefined);
  return { ...current, ...(Object.fromEntries(defined) as Partial<BrandingSettings>) };
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Stored platform settings completed with the defaults, section by section. */
export function mergePlatform(stored: Partial<PlatformSettings> | undefined): PlatformSettings {
  const d = DEFAULT_PLATFORM_SETTINGS;
  const s = stored ?? {};
  return {
    apiVersion: s.apiVersion ?? d.apiVersion,
    session: {
      ...d.session,
      ...s.session,
      cookie: { ...d.session.cookie, ...s.session?.cookie },
    },
    password: { ...d.password, ...s.password },
    emails: { ...d.emails, ...s.emails },
    account: { ...d.account, ...s.account },
    passkeys: { ...d.passkeys, ...s.passkeys },
    passcodes: { ...d.passcodes, ...s.passcodes },
    username: { ...d.username, ...s.username },
    mfa: { ...d.mfa, ...s.mfa },
    rateLimits: { ...d.rateLimits, ...s.rateLimits },
  };
}

interface PlatformPatch {
  apiVersion?: PlatformSettings["apiVersion"] | undefined;
  session?:
    | (Partial<Omit<PlatformSettings["session"], "cookie">> & {
        cookie?: Partial<PlatformSettings["session"]["cookie"]> | undefined;
      })
    | undefined;
  password?: Partial<PlatformSettings["password"]> | undefined;
  emails?: Partial<PlatformSettings["emails"]> | undefined;
  account?: Partial<PlatformSettings["account"]> | undefined;
  passkeys?: Partial<PlatformSettings["passkeys"]> | undefined;
  passcodes?: Partial<PlatformSettings["passcodes"]> | undefined;
  username?: Partial<PlatformSettings["username"]> | undefined;
  mfa?: Partial<PlatformSettings["mfa"]> | undefined;
  rateLimits?: PlatformSettings["rateLimits"] | undefined;
}

/** Applies a validated patch section by section (a `rateLimits` patch merges by endpoint group). */
export function patchPlatform(current: PlatformSettings, patch: PlatformPatch | undefined): PlatformSettings {
  if (!patch) return current;
  const merged = mergePlatform({
    apiVersion: patch.apiVersion ?? current.apiVersion,
    session: {
      ...current.session,
      ...patch.session,
      cookie: { ...current.session.cookie, ...patch.session?.cookie },
    },
    password: { ...current.password, ...patch.password },
    emails: { ...current.emails, ...patch.emails },
    account: { ...current.account, ...patch.account },
    passkeys: { ...current.passkeys, ...patch.passkeys },
    passcodes: { ...current.passcodes, ...patch.passcodes },
    username: { ...current.username, ...patch.username },
    mfa: { ...current.mfa, ...patch.mfa },
    rateLimits: { ...current.rateLimits, ...patch.rateLimits },
  });
  if (merged.username.minLength > merged.username.maxLength) {
    throw new ValidationFailed(["platform.username: minLength must not exceed maxLength"]);
  }
  return merged;
}
