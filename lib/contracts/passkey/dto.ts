import { passkeyProviderName, type OwnedCredential } from "@/lib/credentials";
import type { WebauthnTransactionRow } from "@/lib/db/schema";
import type { z } from "zod";
import type { CredentialDto, RegistrationInit, TransactionDto } from "./schemas";
import type { RegistrationInput } from "@/lib/ceremonies/webauthn";

/** A credential on the wire (Hanko's field names, plus the authenticator's name and the user). */
export function credentialDto({
  credential,
  ownerExternalId,
}: OwnedCredential): z.input<typeof CredentialDto> {
  return {
    id: credential.id,
    name: credential.name,
    public_key: credential.publicKey,
    attestation_type: credential.attestationType,
    aaguid: credential.aaguid,
    authenticator_name: passkeyProviderName(credential.aaguid) ?? null,
    last_used_at: credential.lastUsedAt?.toISOString() ?? null,
    created_at: credential.createdAt.toISOString(),
    transports: credential.transports,
    backup_eligible: credential.backupEligible,
    backup_state: credential.backupState,
    is_mfa: credential.isMfa,
    user_id: ownerExternalId,
  };
}

export function transactionDto(row: WebauthnTransactionRow): z.input<typeof TransactionDto> {
  return {
    id: row.id,
    identifier: row.identifier,
    data: row.data,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
  };
}

/** The registration initialize body (wire names) as the domain's input. */
export function registrationInput(body: z.output<typeof RegistrationInit>): RegistrationInput {
  return { userId: body.user_id, username: body.username, displayName: body.display_name, icon: body.icon };
}
