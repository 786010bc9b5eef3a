import type { CeremonyKind } from "@/lib/db/schema";
import type { Tenant, WebauthnPolicy } from "@/lib/tenants";

/**
 * Ceremonies of the public API (`/t/{tenant_id}/webauthn/…`): a signed-in user adds a passkey, anyone
 * logs in to a session. Stored in `webauthn_challenges.kind` next to the Passkey API's kinds and
 * distinct from them, so neither API finishes a ceremony the other one started.
 */
export type PublicCeremonyKind = "public-registration" | "public-login";

/** Every kind a stored challenge can have. */
export type StoredCeremonyKind = CeremonyKind | PublicCeremonyKind;

/** Public-key algorithms offered at registration: EdDSA, ES256 and RS256 (WebAuthn and FIDO2 conformance). */
export const SUPPORTED_ALGORITHMS = [-8, -7, -257];

/**
 * Which policy a ceremony kind runs under: MFA ceremonies (the Passkey API's, and a platform user's
 * security key) use the tenant's MFA settings.
 */
export function policyOf(
  tenant: Tenant,
  kind: StoredCeremonyKind,
): { name: "passkey" | "mfa"; policy: WebauthnPolicy } {
  return kind === "mfa-registration" || kind === "mfa-login" || kind === "public-mfa-registration"
    ? { name: "mfa", policy: tenant.mfaPolicy }
    : { name: "passkey", policy: tenant.passkeyPolicy };
}

/** Options time out when the stored challenge does (WebAuthn recommends 300 000 ms). */
export function timeoutMs(tenant: Tenant): number {
  return tenant.challengeTtlSeconds * 1000;
}

/**
 * The audit event prefix of a ceremony kind: `passkey.mfa_login` for the Passkey API,
 * `webauthn.login` / `webauthn.registration` for the public API (Hanko's `webauthn_*` events).
 */
export function auditPrefix(kind: StoredCeremonyKind): string {
  if (kind === "public-registration") return "webauthn.registration";
  if (kind === "public-login") return "webauthn.login";
  return `passkey.${kind.replace("-", "_")}`;
}
