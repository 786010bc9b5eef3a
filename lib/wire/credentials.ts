import { z } from "zod";
import type { Credential } from "@/lib/credentials";

/** A credential as Hanko 2.x's public API lists it. */
export const WebauthnCredential = z
  .object({
    id: z.string().meta({ description: "The credential id (base64url)" }),
    name: z.string().meta({ description: "A display label (default: the authenticator's model, if known)" }),
    public_key: z.string().meta({ description: "COSE public key, base64url" }),
    attestation_type: z.string(),
    aaguid: z.string(),
    last_used_at: z.iso.datetime().optional().meta({ description: "Absent until the first login" }),
    created_at: z.iso.datetime(),
    transports: z.array(z.string()),
    backup_eligible: z.boolean(),
    backup_state: z.boolean(),
    mfa_only: z.boolean().meta({ description: "A second-factor key, not usable for passkey login" }),
  })
  .meta({ id: "WebauthnCredential" });

/**
 * The one wire mapping of a stored credential: Hanko's field names, `last_used_at` left out until the
 * first use (as Go omits it). The public API sends it as it is; the Passkey API adds to it.
 */
export function credentialWire(credential: Credential): z.input<typeof WebauthnCredential> {
  return {
    id: credential.id,
    name: credential.name,
    public_key: credential.publicKey,
    attestation_type: credential.attestationType,
    aaguid: credential.aaguid,
    ...(credential.lastUsedAt ? { last_used_at: credential.lastUsedAt.toISOString() } : {}),
    created_at: credential.createdAt.toISOString(),
    transports: credential.transports,
    backup_eligible: credential.backupEligible,
    backup_state: credential.backupState,
    mfa_only: credential.isMfa,
  };
}

/** A credential as Hanko's admin API sends it (`GET /users/{id}`, `…/webauthn_credentials`): the same fields. */
export const AdminWebauthnCredential = WebauthnCredential;

/**
 * A stored credential on the admin API's wire. Hanko's admin WebauthnCredential has the public one's
 * fields (`mfa_only` included), so it is the same mapping; kept as its own name so the admin wire can
 * change without touching the public API's.
 */
export function adminCredentialWire(credential: Credential): z.input<typeof AdminWebauthnCredential> {
  return credentialWire(credential);
}
