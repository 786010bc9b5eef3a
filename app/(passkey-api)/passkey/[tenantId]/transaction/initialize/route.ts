import { initializeTransaction } from "@/lib/ceremonies/webauthn";
import { transactionInitialize } from "@/lib/contracts/passkey";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/transaction/initialize (apiKey): ask the user's passkeys to sign a transaction
export const POST = route(transactionInitialize, async ({ tenant, body, audit }) => {
  const publicKey = await initializeTransaction(
    tenant,
    { userId: body.user_id, transactionId: body.transaction_id, transactionData: body.transaction_data },
    audit,
  );
  return json({ publicKey });
});
