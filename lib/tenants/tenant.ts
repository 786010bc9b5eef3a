import type { SigningAlgorithm, TenantRow } from "@/lib/db/schema";
import type {
  AuditLogSettings,
  BrandingSettings,
  PlatformSettings,
  UafSettings,
  WebauthnPolicy,
} from "@/lib/settings/schemas";
import { completeSettings } from "./settings";

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
  auditLog: AuditLogSettings;
  createdAt: Date;
  updatedAt: Date;
  /**
   * The id (`kid`) of the tenant's active signing key when the tenant was read, so `signToken` needs no
   * statement to find it; undefined when the tenant was read without it (then signToken looks it up).
   */
  activeSigningKeyId?: string | null;
}

export function toTenant(row: TenantRow): Tenant {
  return { ...row, ...completeSettings(row) };
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
