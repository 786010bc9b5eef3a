import { finalizeTransaction } from "@/lib/ceremonies/webauthn";
import { transactionFinalize } from "@/lib/contracts/passkey";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/transaction/finalize (apiKey): verify the signed transaction, return a token with `trans`
export const POST = route(transactionFinalize, async ({ tenant, body, audit }) =>
  json(await finalizeTransaction(tenant, body, audit)),
);
