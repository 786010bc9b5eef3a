import type { WebauthnCredentialRow } from "@/lib/db/schema";

/** A stored WebAuthn credential (passkey or MFA key). */
export type Credential = WebauthnCredentialRow;

/** Default name of a new credential: the authenticator's model when its AAGUID is known (Hanko's rule). */
export function defaultCredentialName(credentialId: string, authenticator: string | undefined): string {
  return authenticator ?? `cred-${credentialId}`;
}
