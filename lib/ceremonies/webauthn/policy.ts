import type { CeremonyKind, WebauthnPolicy } from "@/lib/db/schema";
import type { Tenant } from "@/lib/tenants";

/** Public-key algorithms offered at registration: EdDSA, ES256 and RS256 (WebAuthn and FIDO2 conformance). */
export const SUPPORTED_ALGORITHMS = [-8, -7, -257];

/** Which policy a ceremony kind runs under: MFA ceremonies use the tenant's MFA settings. */
export function policyOf(
  tenant: Tenant,
  kind: CeremonyKind,
): { name: "passkey" | "mfa"; policy: WebauthnPolicy } {
  return kind === "mfa-registration" || kind === "mfa-login"
    ? { name: "mfa", policy: tenant.mfaPolicy }
    : { name: "passkey", policy: tenant.passkeyPolicy };
}

/** Options time out when the stored challenge does (WebAuthn recommends 300 000 ms). */
export function timeoutMs(tenant: Tenant): number {
  return tenant.challengeTtlSeconds * 1000;
}

/** The audit event prefix of a ceremony kind, e.g. `passkey.mfa_login`. */
export function auditPrefix(kind: CeremonyKind): string {
  return `passkey.${kind.replace("-", "_")}`;
}
