import { adminListCredentials } from "@/lib/contracts/admin/credentials";
import { adminCredentialWire } from "@/lib/wire/credentials";
import { listCredentialsOfUser } from "@/lib/credentials";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/users/{userId}/webauthn_credentials: the user's passkeys and security keys
export const GET = route(adminListCredentials, async ({ tenant, params }) =>
  json((await listCredentialsOfUser(tenant.id, params.userId)).map(adminCredentialWire)),
);
