// POST /passkey/{tenantId}/credentials/mfa/login/initialize: the spec's name for /mfa/login/initialize
export { POST } from "../../../../mfa/login/initialize/route";

export const dynamic = "force-dynamic";
