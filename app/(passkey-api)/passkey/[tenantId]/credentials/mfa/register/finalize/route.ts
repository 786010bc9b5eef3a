// POST /passkey/{tenantId}/credentials/mfa/register/finalize: the spec's name for /mfa/registration/finalize
export { POST } from "../../../../mfa/registration/finalize/route";

export const dynamic = "force-dynamic";
