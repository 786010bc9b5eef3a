import { DEFAULT_UAF_SETTINGS } from "@/lib/db/schema";
import type { SigningAlgorithm, TenantRow, UafSettings, WebauthnPolicy } from "@/lib/db/schema";

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
  createdAt: Date;
  updatedAt: Date;
}

export function toTenant(row: TenantRow): Tenant {
  // Settings added later (jsonb) are completed with their defaults.
  return { ...row, uaf: { ...DEFAULT_UAF_SETTINGS, ...row.uaf } };
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
