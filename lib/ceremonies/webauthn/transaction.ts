import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { findUserCredentials } from "@/lib/credentials";
import { transaction } from "@/lib/db";
import type { WebauthnTransactionRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { findUser, findUserByExternalId } from "@/lib/users";
import { finalizeAssertion, issueAssertionOptions } from "./assertion";
import { noSuitableCredentials } from "./login";
import { issueCeremonyToken } from "./token";
import { canonicalJson, transactionChallenge } from "./transaction-challenge";
import { completeTransaction, insertTransaction, selectUserTransactions } from "./transactions-store";

export interface TransactionInput {
  userId: string;
  transactionId: string;
  transactionData: unknown;
}

const TYPE = "passkey.transaction";

/**
 * Starts a transaction signing: records the transaction (its id once per user) and asks the user's
 * passkeys to sign a challenge that ends in SHA-256(transaction_id ‖ canonical JSON of the data).
 */
export async function initializeTransaction(
  tenant: Tenant,
  input: TransactionInput,
  context: AuditContext,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const type = `${TYPE}.initialize`;
  return auditFailures(tenant.id, type, context, async () => {
    const user = await findUserByExternalId(tenant.id, input.userId);
    if (!user) throw new AppError("USER_NOT_FOUND", "unable to find user");
    const credentials = await findUserCredentials(tenant.id, user.id, { mfa: false });
    if (credentials.length === 0) throw noSuitableCredentials();
    const data = canonicalJson(input.transactionData);
    return transaction(async () => {
      const record = await insertTransaction({
        tenantId: tenant.id,
        userId: user.id,
        identifier: input.transactionId,
        data,
      });
      if (!record) throw new AppError("TRANSACTION_EXISTS", "transaction already exists");
      const options = await issueAssertionOptions(tenant, "transaction", {
        userId: user.id,
        credentials,
        challenge: transactionChallenge(input.transactionId, data),
        transactionId: record.id,
      });
      await recordAuditEvent(tenant.id, {
        ...context,
        type: `${type}.succeeded`,
        actor: input.userId,
        details: { transaction_id: input.transactionId },
      });
      return options;
    });
  });
}

/** Finishes a transaction: the token carries `trans` = the transaction id. */
export async function finalizeTransaction(
  tenant: Tenant,
  response: AuthenticationResponseJSON,
  context: AuditContext,
): Promise<{ token: string }> {
  return auditFailures(tenant.id, `${TYPE}.finalize`, context, () =>
    finalizeAssertion(
      tenant,
      "transaction",
      response,
      context,
      async ({ ceremony, credential, ownerExternalId }) => {
        const record = ceremony.transactionId
          ? await completeTransaction(tenant.id, ceremony.transactionId)
          : undefined;
        // Not CEREMONY_VERIFICATION_FAILED: the Passkey API answers it as a 401 with the API-key hint.
        if (!record) throw new AppError("TRANSACTION_NOT_FOUND", "failed to get transaction data");
        const token = await issueCeremonyToken(tenant, {
          userId: ownerExternalId,
          credentialId: credential.id,
          transactionId: record.identifier,
        });
        return { result: { token }, details: { transaction_id: record.identifier } };
      },
    ),
  );
}

/**
 * A user's transactions, oldest first. The user is named by the relying party's `user_id`; Hanko's
 * internal user UUID is accepted too. An unknown user has none.
 */
export async function listTransactions(tenantId: string, userRef: string): Promise<WebauthnTransactionRow[]> {
  const user = (await findUserByExternalId(tenantId, userRef)) ?? (await findUser(tenantId, userRef));
  return user ? selectUserTransactions(tenantId, user.id) : [];
}
