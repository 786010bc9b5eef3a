import { setPrimaryEmail, setPrimaryEmailPost } from "@/lib/contracts/public/emails";
import { setPrimaryEmailOfSelf } from "@/lib/accounts";
import { noContent, preflight, route, type RouteInput } from "@/lib/http";

export const dynamic = "force-dynamic";

async function setPrimary({
  tenant,
  session,
  params,
  audit,
}: RouteInput<typeof setPrimaryEmail | typeof setPrimaryEmailPost>) {
  await setPrimaryEmailOfSelf(tenant, session.user, params.emailId, audit);
  return noContent();
}

// PUT /t/{tenantId}/emails/{emailId}/set_primary: make the address the primary one
export const PUT = route(setPrimaryEmail, setPrimary);
// POST /t/{tenantId}/emails/{emailId}/set_primary (deprecated spelling)
export const POST = route(setPrimaryEmailPost, setPrimary);
export const OPTIONS = preflight(setPrimaryEmail, setPrimaryEmailPost);
