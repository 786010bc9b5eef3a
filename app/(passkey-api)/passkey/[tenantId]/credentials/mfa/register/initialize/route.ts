// POST /passkey/{tenantId}/credentials/mfa/register/initialize: the spec's name for /mfa/registration/initialize
export { POST } from "../../../../mfa/registration/initialize/route";

export const dynamic = "force-dynamic";
