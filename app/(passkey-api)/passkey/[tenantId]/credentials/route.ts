import { listCredentials } from "@/lib/credentials";
import { credentialDto, credentialList } from "@/lib/contracts/passkey";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /passkey/{tenantId}/credentials?user_id= (apiKey): the user's passkeys and MFA keys
export const GET = route(credentialList, async ({ tenant, query }) =>
  json((await listCredentials(tenant.id, query.user_id)).map(credentialDto)),
);
