import { getUserMetadata, metadataWire, patchUserMetadata } from "@/lib/contracts/admin";
import { json, noContent, route } from "@/lib/http";
import { getMetadata, isEmptyMetadata, patchMetadata, type UserMetadata } from "@/lib/metadata";

export const dynamic = "force-dynamic";

const present = (metadata: UserMetadata) =>
  isEmptyMetadata(metadata) ? noContent() : json(metadataWire(metadata));

// GET /t/{tenantId}/admin/users/{userId}/metadata: public, private and unsafe metadata (204 when none)
export const GET = route(getUserMetadata, async ({ tenant, params }) =>
  present(await getMetadata(tenant.id, params.userId)),
);

// PATCH /t/{tenantId}/admin/users/{userId}/metadata: RFC 7396 merge per kind; null clears all
export const PATCH = route(patchUserMetadata, async ({ tenant, params, body, audit }) =>
  present(await patchMetadata(tenant, params.userId, body, audit)),
);
