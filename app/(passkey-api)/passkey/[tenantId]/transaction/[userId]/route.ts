import { listTransactions } from "@/lib/ceremonies/webauthn";
import { transactionDto, transactionList } from "@/lib/contracts/passkey";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /passkey/{tenantId}/transaction/{userId} (apiKey): the user's transactions
export const GET = route(transactionList, async ({ tenant, params }) =>
  json((await listTransactions(tenant.id, params.userId)).map(transactionDto)),
);
