// POST /passkey/{tenantId}/credentials/register/initialize: the spec's name for /registration/initialize
export { POST } from "../../../registration/initialize/route";

export const dynamic = "force-dynamic";
