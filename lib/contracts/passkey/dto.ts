import { passkeyProviderName, type OwnedCredential } from "@/lib/credentials";
import type { WebauthnTransactionRow } from "@/lib/db/schema";
import type { z } from "zod";
import { credentialWire } from "@/lib/wire/credentials";
import type { CredentialDto, RegistrationInit, TransactionDto } from "./schemas";
import type { RegistrationInput } from "@/lib/ceremonies/webauthn";

/** A credential on the wire: the shared mapping, plus the authenticator's name and the owner. */
export function credentialDto({
  credential,
  ownerExternalId,
}: OwnedCredential): z.input<typeof CredentialDto> {
  const { last_used_at, mfa_only, ...fields } = credentialWire(credential);
  return {
    ...fields,
    authenticator_name: passkeyProviderName(credential.aaguid) ?? null,
    last_used_at: last_used_at ?? null,
    is_mfa: mfa_only,
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
